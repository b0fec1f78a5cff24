/**
 * A run as the user names it on the command line: its whole id, a prefix of it that fits one run
 * only (`20261125-1426`, `debate_20261125`), or `latest`, the run started last. The same rules hold
 * in a runs folder and in the shared database, for every format.
 */
import { UsageError } from '../core/errors.js';
import type { RunDatabase } from '../store/postgres/run-database.js';

/** A run that could be meant: its id and when it started (ISO time; '' when unknown). */
export interface KnownRun {
  runId: string;
  startedAt: string;
}

export const LATEST = 'latest';

/**
 * The id of the run `reference` names among `runs`, or undefined when none fits. A prefix that fits
 * several runs is refused with the ones it fits; `latest` among no runs is refused too.
 */
export function matchRun(reference: string, runs: readonly KnownRun[], where: string): string | undefined {
  if (runs.some((run) => run.runId === reference)) return reference;
  if (reference === LATEST) {
    const newest = [...runs].sort(
      (left, right) => left.startedAt.localeCompare(right.startedAt) || left.runId.localeCompare(right.runId),
    );
    const last = newest.at(-1);
    if (!last) throw new UsageError(`there are no runs in ${where} yet, so none is the latest`);
    return last.runId;
  }
  const fitting = runs.filter((run) => run.runId.startsWith(reference)).map((run) => run.runId);
  if (fitting.length <= 1) return fitting[0];
  const shown = fitting.sort().slice(0, 5);
  throw new UsageError(
    `"${reference}" is the start of ${fitting.length} runs in ${where} (${shown.join(', ')}${fitting.length > shown.length ? ', ...' : ''}); type more of the id`,
  );
}

/** The id of the run `reference` names in the shared database; the reference itself when none fits. */
export async function databaseRunId(
  reference: string,
  database: Pick<RunDatabase, 'runs'>,
  where: string,
): Promise<string> {
  const runs = (await database.runs()).map((row) => ({
    runId: row.runId,
    startedAt: row.createdAt.toISOString(),
  }));
  return matchRun(reference, runs, where) ?? reference;
}
