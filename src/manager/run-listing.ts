import path from 'node:path';
import { formatNamed } from '../formats/index.js';
import { runFolders } from '../store/run-index.js';
import { lockOwner } from '../store/run-lock.js';
import { loadRun } from './debate-manager.js';
import { openRunIndex } from './indexing.js';

/** Every status a listing shows: a run's own, interrupted (its writer is gone) and damaged (its log is unreadable). */
export const LISTING_STATUSES = [
  'running',
  'completed',
  'degraded',
  'stopped',
  'failed',
  'interrupted',
  'damaged',
] as const;

export interface RunListing {
  runId: string;
  runDir: string;
  format: string;
  status: string;
  topic: string;
  models: string;
  batch: string;
  progress: string;
  stopReason: string;
  /** Failed steps that stand in the run's record. */
  failedSteps: number;
}

export async function listRuns(outDir: string): Promise<RunListing[]> {
  const index = openRunIndex(outDir, formatNamed);
  const indexed = new Map<string, RunListing>();
  try {
    const result = index.query(
      'SELECT run_id, run_dir, format, status, topic, models, batch_id, done, total, stop_reason, failed_steps FROM runs ORDER BY run_id',
    );
    for (const [
      runId,
      runDir,
      format,
      status,
      topic,
      models,
      batch,
      done,
      total,
      stopReason,
      failedSteps,
    ] of result.rows) {
      indexed.set(String(runId), {
        runId: String(runId),
        runDir: String(runDir),
        format: String(format),
        status: String(status),
        topic: String(topic),
        models: String(models),
        batch: batch === null ? '' : String(batch),
        progress: `${done}/${total}`,
        stopReason: stopReason === null ? '' : String(stopReason),
        failedSteps: Number(failedSteps ?? 0),
      });
    }
  } finally {
    index.close();
  }
  const listings: RunListing[] = [];
  for (const runDir of runFolders(outDir)) {
    const name = path.basename(runDir);
    let listing = indexed.get(name);
    const live = lockOwner(runDir) !== null;
    if (!listing || live || listing.status === 'running') {
      try {
        const loaded = loadRun(runDir, formatNamed);
        const progress = loaded.format.progress(loaded.state);
        listing = {
          runId: progress.runId,
          runDir,
          format: progress.format,
          status: progress.status,
          topic: progress.topic,
          models: listing?.models ?? '',
          batch: listing?.batch ?? '',
          progress: `${progress.done}/${progress.total}`,
          stopReason: progress.stopReason ?? '',
          failedSteps: progress.failedSteps,
        };
      } catch (error) {
        listing = {
          runId: name,
          runDir,
          format: '',
          status: 'damaged',
          topic: '',
          models: '',
          batch: '',
          progress: '',
          stopReason: (error as Error).message,
          failedSteps: 0,
        };
      }
    }
    if (listing.status === 'running') {
      listing = live
        ? listing
        : { ...listing, status: 'interrupted', stopReason: 'process ended without finishing; resume it' };
    }
    listings.push(listing);
  }
  return listings;
}
