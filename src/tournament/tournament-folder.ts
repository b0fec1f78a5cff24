/**
 * A tournament's folder: its log, its lock (one process runs a tournament at a time), and the run
 * folders of its debates beside them, with the runs' own index.
 */
import { mkdirSync } from 'node:fs';
import { ExitCode, RunError } from '../core/errors.js';
import { acquireRunLock, lockOwner } from '../store/run-lock.js';
import { guardStorage } from '../store/storage-failure.js';

/** Makes the folder and takes its lock; refuses a tournament another live process is running. */
export function claimTournamentFolder(folder: string): () => void {
  guardStorage(folder, 'create', () => mkdirSync(folder, { recursive: true }));
  try {
    return acquireRunLock(folder);
  } catch (error) {
    if (!(error instanceof RunError) || error.exitCode !== ExitCode.runLocked) throw error;
    const owner = lockOwner(folder);
    throw new RunError(
      `the tournament in ${folder} is being run by process ${owner ?? '(unknown)'}; wait for it to finish, or stop it with Ctrl-C in its terminal (or \`kill -INT ${owner ?? 'PID'}\`)`,
      { exitCode: ExitCode.runLocked },
    );
  }
}
