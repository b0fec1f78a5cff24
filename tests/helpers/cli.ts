/** Runs the agora CLI as a user would: a real child process, real files, real exit codes. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const entry = path.join(projectRoot, 'src', 'cli', 'main.ts');
// The loader by path, so the CLI also starts from a working folder outside the project.
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command line that starts the CLI from the sources, for tests that launch it some other way. */
export function agoraCommandLine(args: string[]): string[] {
  return [process.execPath, '--import', tsxLoader, entry, ...args];
}

export interface AgoraOptions {
  env?: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
  /** Runs the CLI as this user (and group) instead of the test's own; needs root. */
  user?: { uid: number; gid: number };
  /** Piped to the CLI's standard input, which is then closed (otherwise it has none). */
  input?: string;
}

export function runAgora(args: string[], options: AgoraOptions = {}): Promise<CliResult> {
  return startAgora(args, options).result;
}

/** Starts the CLI without waiting, for tests that signal or kill it mid-run. */
export function startAgora(
  args: string[],
  options: AgoraOptions = {},
): { child: ChildProcess; result: Promise<CliResult> } {
  let child: ChildProcess | undefined;
  const result = new Promise<CliResult>((resolve, reject) => {
    const [command = process.execPath, ...rest] = agoraCommandLine(args);
    child = spawn(command, rest, {
      cwd: options.cwd ?? projectRoot,
      // An explicit host keeps tests away from any real Ollama on the machine.
      env: { ...process.env, NO_COLOR: '1', OLLAMA_HOST: 'http://127.0.0.1:1', ...options.env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      ...options.user,
    });
    const started = child;
    if (options.input !== undefined) started.stdin?.end(options.input);
    let stdout = '';
    let stderr = '';
    started.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    started.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => started.kill('SIGKILL'), options.timeoutMs ?? 600_000);
    started.on('error', reject);
    started.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? -1 : null), stdout, stderr });
    });
  });
  return { child: child as unknown as ChildProcess, result };
}

export function tempDir(prefix = 'agora-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Writes files into a fresh folder; returns the folder. */
export function writeFiles(files: Record<string, string>, dir = tempDir()): string {
  for (const [name, content] of Object.entries(files)) {
    const target = path.join(dir, name);
    writeFileSync(target, content);
  }
  return dir;
}

/** A local port with nothing listening on it (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}
