/**
 * One process at a time may append to a run. The lock file holds the owner's pid; a lock left by a
 * process that no longer exists is taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ExitCode, RunError } from '../core/errors.js';
import { storageFailure } from './storage-failure.js';

export const LOCK_FILE = 'run.lock';

/**
 * Whether the process has ended but its parent has not collected it yet (`State: Z` on Linux).
 * Such a zombie still answers `kill(pid, 0)`, yet runs no code and holds nothing: right after a
 * `kill -9` the writer is one until its parent waits for it. Elsewhere (no /proc), false.
 */
function isZombie(pid: number): boolean {
  try {
    return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

/** The pid holding the run's lock, if that process is still alive. */
export function lockOwner(runDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(runDir, LOCK_FILE), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

export function acquireRunLock(runDir: string): () => void {
  const file = path.join(runDir, LOCK_FILE);
  for (let tries = 0; tries < 2; tries += 1) {
    try {
      const descriptor = openSync(file, 'wx');
      try {
        writeSync(descriptor, `${process.pid}\n`);
      } catch (error) {
        // A lock without its owner's pid would look stale to everyone else: take it back.
        rmSync(file, { force: true });
        throw error;
      } finally {
        closeSync(descriptor);
      }
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw storageFailure(error, file, 'create');
      const owner = lockOwner(runDir);
      if (owner !== null && owner !== process.pid) {
        throw new RunError(
          `the run in ${runDir} is being written by process ${owner}; wait for it to finish, or stop it with \`agora stop\``,
          { exitCode: ExitCode.runLocked },
        );
      }
      // A stale lock from a process that died: take it over.
      try {
        rmSync(file, { force: true });
      } catch (removal) {
        throw storageFailure(removal, file, 'take over the stale lock');
      }
    }
  }
  throw new RunError(`could not lock the run in ${runDir}`, { exitCode: ExitCode.runLocked });
}
