/**
 * What the leaderboard reads beside the run index: the runs' own folders. The argument map needs a
 * debate's claims and statements, and the arena's votes live beside the log, never in the index, so
 * both are read from the folders the index lists. A result worked out from a log is kept while the
 * log stays the same size and age, so a viewer asked for its leaderboard again reads nothing anew.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RunEvent } from '../core/events.js';
import { readEventLog } from '../store/event-log.js';
import type { RunIndex } from '../store/run-index.js';

type Cell = string | number | null;

export interface LoggedRun {
  runId: string;
  runDir: string;
  format: string;
}

/** Formats with two sides: the ones an argument map and a person's vote are about. */
export const TWO_SIDED_FORMATS = ['knockout', 'formal', 'duel'] as const;

/** The two-sided runs the leaderboard counts, with their folders. */
export function loggedRuns(index: RunIndex, runsIn: string, params: Cell[]): LoggedRun[] {
  const formats = TWO_SIDED_FORMATS.map((format) => `'${format}'`).join(', ');
  const result = index.query(
    `SELECT run_id, run_dir, format FROM runs WHERE run_id IN ${runsIn} AND format IN (${formats}) AND run_dir IS NOT NULL ORDER BY run_id`,
    params,
  );
  return result.rows.map(([runId, runDir, format]) => ({
    runId: String(runId),
    runDir: String(runDir),
    format: String(format),
  }));
}

const MEMO_LIMIT = 2000;

/**
 * `work` applied to a run's events, remembered per log and per kind of work while the log is
 * unchanged; null when the log cannot be read (moved, damaged).
 */
export function fromRunLog<T>(kind: string, runDir: string, work: (events: RunEvent[]) => T): T | null {
  const file = path.join(runDir, 'events.jsonl');
  if (!existsSync(file)) return null;
  const stat = statSync(file);
  const key = `${kind}\u0000${file}`;
  const stamp = `${stat.size}:${stat.mtimeMs}`;
  const kept = memo.get(key);
  if (kept && kept.stamp === stamp) return kept.value as T;
  let value: T;
  try {
    value = work(readEventLog(file).events);
  } catch {
    // A damaged log is `agora runs`'s and `resume`'s business; the leaderboard counts what it can read.
    return null;
  }
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
  memo.set(key, { stamp, value });
  return value;
}

const memo = new Map<string, { stamp: string; value: unknown }>();
