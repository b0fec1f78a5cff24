/**
 * Debates started from the browser run in worker processes: `agora run` or `agora resume`, detached
 * from the web server, so the server can stop or restart while they go on.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface WorkerLauncher {
  /** Starts `agora <args>` with its output in `logFile`; returns the process id. */
  launch(args: string[], logFile: string): number;
}

/** The command line that runs this installation's CLI: the compiled one, or the sources through tsx. */
export function agoraCommand(): string[] {
  const here = fileURLToPath(import.meta.url);
  const extension = path.extname(here);
  const entry = path.join(path.dirname(here), '..', 'cli', `main${extension}`);
  if (extension !== '.ts') return [entry];
  // tsx is found from here, not from the worker's working folder (which may be anywhere).
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return ['--import', loader, entry];
}

export function processLauncher(options: { cwd: string; env?: NodeJS.ProcessEnv }): WorkerLauncher {
  return {
    launch(args, logFile) {
      const output = openSync(logFile, 'a');
      try {
        const child = spawn(process.execPath, [...agoraCommand(), ...args], {
          cwd: options.cwd,
          env: options.env ?? process.env,
          detached: true,
          stdio: ['ignore', output, output],
        });
        child.on('error', () => undefined);
        child.unref();
        return child.pid ?? -1;
      } finally {
        closeSync(output);
      }
    },
  };
}
