/**
 * Finds a run folder from what the user typed: a path, a run id in the places runs are kept, a
 * unique prefix of one, `latest`, or a council's decision record or packet id.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { findRunFolder } from '../store/find-run.js';
import { runFolders } from '../store/run-index.js';
import { type RunPlaces, runSearchFolders, singlePlace } from '../store/run-places.js';
import { type KnownRun, matchRun } from './run-reference.js';

export function findRunDir(
  reference: string | undefined,
  where: string | RunPlaces,
  _command: string,
): string {
  const places = typeof where === 'string' ? singlePlace(where) : where;
  try {
    return findRunFolder(reference, places);
  } catch (error) {
    if (!(error instanceof UsageError) || reference === undefined) throw error;
    // Not a folder of its own: the start of a run id, or `latest`, in any of the places.
    const folders = runSearchFolders(places);
    const runs = folders.flatMap((folder) => runsIn(folder));
    const meant = matchRun(reference, runs, folders.join(' and '));
    const found = meant === undefined ? undefined : runs.find((run) => run.runId === meant);
    if (found) return found.runDir;
    throw error;
  }
}

/** The runs in a folder, each with the time its log says it started. */
function runsIn(folder: string): Array<KnownRun & { runDir: string }> {
  return runFolders(folder).map((runDir) => ({
    runId: path.basename(runDir),
    runDir,
    startedAt: startTime(path.join(runDir, 'events.jsonl')),
  }));
}

/** The time of a log's first event (its line begins with `seq` and `at`); else when the file was written. */
function startTime(file: string): string {
  try {
    const descriptor = openSync(file, 'r');
    const start = Buffer.alloc(256);
    try {
      readSync(descriptor, start, 0, start.length, 0);
    } finally {
      closeSync(descriptor);
    }
    const at = /^\{"seq":0,"at":"([^"]+)"/.exec(start.toString('utf8'))?.[1];
    return at ?? statSync(file).mtime.toISOString();
  } catch {
    return '';
  }
}
