/** The runs folder as the viewer reads it: a run by its id, the runs list with its filters, the index. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { LeaderTable } from '../analytics/leader-table.js';
import { type LeaderboardOptions, leaderboard } from '../analytics/leaderboard.js';
import { truthTable } from '../analytics/truth-leaderboard.js';
import { formatNamed } from '../formats/index.js';
import { loadRun } from '../manager/debate-manager.js';
import { openRunIndex } from '../manager/indexing.js';
import { listRuns } from '../manager/run-listing.js';
import { derivedFilesStale } from '../store/derived-files.js';
import { isRunId } from '../store/run-id.js';
import type { BatchChoice } from './batch-choice.js';
import { HttpError } from './request-guards.js';
import { RunFeed } from './run-feed.js';
import { readStartRecord } from './start-record.js';

export class ViewerRuns {
  /** The worker processes this viewer resumed runs in, by run id. */
  private readonly resumedIn = new Map<string, number>();

  constructor(readonly outDir: string) {}

  /** Notes that run `runId` was resumed in process `pid`: until it ends, the run is about to go on. */
  resumed(runId: string, pid: number | null): void {
    if (pid !== null) this.resumedIn.set(runId, pid);
  }

  /** Whether a worker this viewer resumed the run in is still running (it may not have written yet). */
  resuming(runId: string): boolean {
    const pid = this.resumedIn.get(runId);
    if (pid === undefined) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      this.resumedIn.delete(runId);
      return false;
    }
  }

  /** The folder of a run this viewer knows (it ran, or the viewer started it); 400 or 404 otherwise. */
  runDir(runId: string): string {
    if (!isRunId(runId)) throw new HttpError(400, `"${runId}" is not a run id`);
    const runDir = path.join(this.outDir, runId);
    if (!existsSync(path.join(runDir, 'events.jsonl')) && !readStartRecord(this.outDir, runId)) {
      throw new HttpError(404, `there is no run ${runId} in ${this.outDir}`);
    }
    return runDir;
  }

  /** A run's feed, read up to now. Its transcripts, when behind its log, are written anew first. */
  feed(runId: string): RunFeed {
    const runDir = path.join(this.outDir, runId);
    if (derivedFilesStale(runDir)) {
      try {
        loadRun(runDir, formatNamed);
      } catch {
        // A damaged log: the page shows what it can read, and `runs` says what is wrong.
      }
    }
    return new RunFeed(this.outDir, runId, formatNamed);
  }

  /** A run as it stands: its view, from its log, its live notices and its spectators. */
  view(runId: string) {
    const feed = this.feed(runId);
    feed.poll(true);
    return feed.view();
  }

  /** The runs, newest first (the run just started is the one a visitor looks for), filtered by the query. */
  async filtered(query: URLSearchParams) {
    const status = query.get('status') || undefined;
    const format = query.get('format') || undefined;
    const topic = query.get('topic') || undefined;
    const runs = (await listRuns(this.outDir)).filter(
      (run) =>
        (!status || run.status === status) &&
        (!format || run.format === format) &&
        (!topic || run.topic.toLowerCase().includes(topic.toLowerCase())),
    );
    runs.sort((left, right) => right.startedAt.localeCompare(left.startedAt));
    return { runs, filters: { status, format, topic } };
  }

  /** Reads the run index, closing it afterwards. */
  withIndex<T>(read: (index: ReturnType<typeof openRunIndex>) => T): T {
    const index = openRunIndex(this.outDir, formatNamed);
    try {
      return read(index);
    } finally {
      index.close();
    }
  }
}

/** The leaderboard's tables, as `agora leaderboard` gives them: the index's, then the truth table. */
export function leaderboardTables(
  index: ReturnType<typeof openRunIndex>,
  outDir: string,
  options: LeaderboardOptions,
): LeaderTable[] {
  return [...leaderboard(index, options), truthTable(index, outDir, options)];
}

/** Which runs the leaderboard counts: `?batch=` for one batch, `?demo=1` to count simulated runs too. */
export function leaderboardOptions(query: URLSearchParams): LeaderboardOptions {
  const batch = query.get('batch') || undefined;
  return {
    ...(batch ? { batchId: batch } : {}),
    ...(query.get('demo') === '1' ? { includeDemo: true } : {}),
  };
}

/** The batches in the index (their plans, and the batches its runs name), newest first. */
export function listBatches(index: ReturnType<typeof openRunIndex>): BatchChoice[] {
  const result = index.query(
    `SELECT batch_id, MAX(created_at) AS created_at, MAX(debates) AS debates FROM (
       SELECT batch_id, created_at, debates FROM batches
       UNION ALL SELECT DISTINCT batch_id, NULL, NULL FROM runs WHERE batch_id IS NOT NULL
     ) GROUP BY batch_id ORDER BY created_at DESC, batch_id`,
  );
  return result.rows.map(([batchId, createdAt, debates]) => ({
    batchId: String(batchId),
    createdAt: typeof createdAt === 'string' ? createdAt : null,
    debates: typeof debates === 'number' ? debates : null,
  }));
}
