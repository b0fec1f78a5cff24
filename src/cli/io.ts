/** What a command may touch of the outside world; tests and the real process provide it. */
import type { Readable, Writable } from 'node:stream';

export interface CliIo {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Where a person at the podium types (or pipes) their statements. */
  stdin?: Readable & { isTTY?: boolean };
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
  };
}
