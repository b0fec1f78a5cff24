/**
 * The files a run folder derives from its log (transcript.json, transcript.md): whether they are
 * behind it. The log is the record; a process killed after its last event was written but before
 * these were rewritten (or a disk that filled at that moment) leaves them older than the log, and
 * then they say what the run was, not what it is.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { EVENTS_FILE } from './run-folder.js';
import { lockOwner } from './run-lock.js';

export const DERIVED_FILES = ['transcript.json', 'transcript.md'] as const;

function modifiedMs(file: string): number | null {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Whether a derived file of the run in `runDir` is missing or older than its log, and no other
 * live process is writing the run (a running run's files catch up at its next checkpoint).
 */
export function derivedFilesStale(runDir: string): boolean {
  const log = modifiedMs(path.join(runDir, EVENTS_FILE));
  if (log === null) return false;
  const behind = DERIVED_FILES.some((name) => {
    const derived = modifiedMs(path.join(runDir, name));
    return derived === null || derived < log;
  });
  if (!behind) return false;
  const owner = lockOwner(runDir);
  return owner === null || owner === process.pid;
}
