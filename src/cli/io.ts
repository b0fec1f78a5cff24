/** What a command may touch of the outside world; tests and the real process provide it. */
import type { Writable } from 'node:stream';

export interface CliIo {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
