/**
 * What was done to a log's last line before a run went on: a torn one (a write cut off) is dropped
 * and its step redone; a whole event that only lost its final newline is ended, and nothing is
 * redone. Said once to the user and once in the run's own log (run.log).
 */
import type { LoadedRun } from './debate-manager.js';

export function lastLineRepair(
  loaded: Pick<LoadedRun, 'paths' | 'repairedTornLine' | 'endedLastLine'>,
): string | null {
  const file = loaded.paths.events;
  if (loaded.repairedTornLine)
    return `the last line of ${file} was cut off by a crash; it was dropped and that step will be redone`;
  if (loaded.endedLastLine)
    return `the last line of ${file} had lost its final newline; it is a whole event, so the newline was added and nothing is redone`;
  return null;
}
