/**
 * The store's file-system boundary: a refusal by the file system (a full disk, a read-only file
 * system, a denied folder) becomes a StorageError naming the path and the cause, so the user
 * learns what to fix instead of reading "unexpected error".
 */
import { StorageError } from '../core/errors.js';

/** The refusals a user can fix, in their words. */
const CAUSES: Record<string, string> = {
  ENOSPC: 'the disk is full (no space left on the device)',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
};

/**
 * `error` as a StorageError when it is a file-system refusal, else unchanged. `action` says what
 * was being done (`write`, `create the run folder`), `advice` what the user can do next.
 */
export function storageFailure(error: unknown, file: string, action: string, advice?: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const cause = code === undefined ? undefined : CAUSES[code];
  if (cause === undefined) return error;
  return new StorageError(`could not ${action} ${file}: ${cause} (${code})${advice ? `. ${advice}` : ''}`, {
    path: file,
    code,
    cause: error,
  });
}

/** Runs `work`, turning a file-system refusal into a StorageError about `file`. */
export function guardStorage<T>(file: string, action: string, work: () => T, advice?: string): T {
  try {
    return work();
  } catch (error) {
    throw storageFailure(error, file, action, advice);
  }
}
