/** The `agora` command line: picks a command, and maps every error to one paragraph and an exit code. */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { AgoraError, ExitCode } from '../core/errors.js';
import { commandHelp } from './command-help.js';
import { batchCommand } from './commands/batch.js';
import { demoCommand } from './commands/demo.js';
import { doctorCommand } from './commands/doctor.js';
import { exportCommand } from './commands/export.js';
import { leaderboardCommand } from './commands/leaderboard.js';
import { migrateCommand } from './commands/migrate.js';
import { mockOllamaCommand } from './commands/mock-ollama.js';
import { pullCommand } from './commands/pull.js';
import { pushCommand } from './commands/push.js';
import { queryCommand } from './commands/query.js';
import { reindexCommand } from './commands/reindex.js';
import { resumeCommand } from './commands/resume.js';
import { runCommand } from './commands/run.js';
import { runsCommand } from './commands/runs.js';
import { serveCommand } from './commands/serve.js';
import { showCommand } from './commands/show.js';
import { stopCommand } from './commands/stop.js';
import { validateCommand } from './commands/validate.js';
import { workerCommand } from './commands/worker.js';
import { databaseMirrorArgs, MIRRORED_COMMANDS } from './database-mirror-args.js';
import { HELP } from './help.js';
import { type CliIo, processIo } from './io.js';

type Command = (argv: string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  run: runCommand,
  debate: runCommand,
  demo: demoCommand,
  batch: batchCommand,
  resume: resumeCommand,
  runs: runsCommand,
  reindex: reindexCommand,
  query: queryCommand,
  leaderboard: leaderboardCommand,
  show: showCommand,
  export: exportCommand,
  serve: serveCommand,
  stop: stopCommand,
  validate: validateCommand,
  doctor: doctorCommand,
  migrate: migrateCommand,
  worker: workerCommand,
  push: pushCommand,
  pull: pullCommand,
  'mock-ollama': mockOllamaCommand,
};

/** Every command's name, for the help texts. */
export const COMMAND_NAMES = Object.keys(COMMANDS);

export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(HELP);
    return name === undefined ? ExitCode.usage : ExitCode.ok;
  }
  if (name === 'version' || name === '--version' || name === '-v') {
    io.stdout.write(`agora ${packageVersion()}\n`);
    return ExitCode.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr.write(
      `agora: unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(', ')}, help, version.\n`,
    );
    return ExitCode.usage;
  }
  // Only flags before a `--` ask for help; after it, `-h` could be a value.
  const flags = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (flags.includes('--help') || flags.includes('-h')) {
    io.stdout.write(commandHelp(name) ?? HELP);
    return ExitCode.ok;
  }
  const verbose = rest.includes('--verbose');
  try {
    if (MIRRORED_COMMANDS.has(name)) {
      const mirrored = await databaseMirrorArgs(rest, io);
      const code = await command(mirrored.argv, io);
      if (mirrored.queued > 0 && name === 'runs') {
        io.stderr.write(
          `${mirrored.queued} more debate${mirrored.queued === 1 ? ' is' : 's are'} queued in the database, waiting for a worker.\n`,
        );
      }
      return code;
    }
    return await command(rest, io);
  } catch (error) {
    if (error instanceof AgoraError) {
      io.stderr.write(`agora ${name}: ${error.message}\n`);
      if (verbose && error.cause instanceof Error)
        io.stderr.write(`${error.cause.stack ?? error.cause.message}\n`);
      return error.exitCode;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(
      `agora ${name}: unexpected error: ${message}${verbose ? '' : ' (run with --verbose for details)'}\n`,
    );
    if (verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return ExitCode.internal;
  }
}

/** The version in package.json, which sits two folders up from both src/cli and dist/cli. */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? 'unknown';
}

/**
 * Output piped into a reader that stops early (`agora runs | head`): the closed pipe ends the
 * output quietly, as it does for other command-line tools, instead of with an error.
 */
export function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    stream.destroy();
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  endQuietlyOnClosedPipe(process.stdout);
  process.exitCode = await runCli(process.argv.slice(2));
}
