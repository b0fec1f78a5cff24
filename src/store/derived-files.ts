/**
 * The files a run folder derives from its log (transcript.json, transcript.md): whether they are
 * behind it. The log is the record; a process killed after its last event was written but before
 * these were rewritten (or a disk that filled at that moment) leaves them made from an earlier
 * position of the log, and then they say what the run was, not what it is.
 *
 * Each file records the log position it was made from (see log-position.ts); a file that records
 * another position than the log's, or none (written before files recorded it), is behind. File
 * times never make a file current: they step in milliseconds or more, and a copied folder gets
 * them anew or rounded. A log newer than a file is still read again, though: a line changed by hand
 * in the middle of the log moves no position, and reading the log again is what names it.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { type LogPosition, logPosition, recordedPosition, samePosition } from './log-position.js';
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

/** Whether a derived file (made from the log at `logged`) is behind the log in `runDir`. */
function behind(runDir: string, name: string, logged: LogPosition | null, logTime: number): boolean {
  const file = path.join(runDir, name);
  const derivedTime = modifiedMs(file);
  if (derivedTime === null || derivedTime < logTime) return true;
  return !samePosition(recordedPosition(file), logged);
}

/**
 * Whether a derived file of the run in `runDir` is missing or made from another position of its
 * log, and no other live process is writing the run (a running run's files catch up at its next
 * checkpoint).
 */
export function derivedFilesStale(runDir: string): boolean {
  const log = path.join(runDir, EVENTS_FILE);
  const logTime = modifiedMs(log);
  if (logTime === null) return false;
  const logged = logPosition(log);
  if (!DERIVED_FILES.some((name) => behind(runDir, name, logged, logTime))) return false;
  const owner = lockOwner(runDir);
  return owner === null || owner === process.pid;
}
