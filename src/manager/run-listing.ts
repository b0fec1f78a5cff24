import path from 'node:path';
import { formatNamed } from '../formats/index.js';
import { outcomeLine } from '../formats/outcome-line.js';
import { runFolders } from '../store/run-index.js';
import { lockOwner } from '../store/run-lock.js';
import { loadRun } from './debate-manager.js';
import { openRunIndex } from './indexing.js';

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
  /** When the run started (ISO time), '' when unknown. */
  startedAt: string;
  /** Time spent running, pauses between a stop and a resume left out; null when unknown. */
  activeMs: number | null;
  /** How it came out, in one line; '' while undecided. */
  outcome: string;
}

export async function listRuns(outDir: string): Promise<RunListing[]> {
  const index = openRunIndex(outDir, formatNamed);
  const indexed = new Map<string, RunListing>();
  try {
    const result = index.query(
      'SELECT run_id, run_dir, format, status, topic, models, batch_id, done, total, stop_reason, failed_steps, started_at, active_ms, outcome FROM runs ORDER BY run_id',
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
      startedAt,
      activeMs,
      outcome,
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
        startedAt: startedAt === null ? '' : String(startedAt),
        activeMs: activeMs === null ? null : Number(activeMs),
        outcome: outcome === null ? '' : String(outcome),
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
          startedAt: loaded.events[0]?.at ?? '',
          // Not indexed yet: the time from the first event to the last, pauses included.
          activeMs:
            listing?.activeMs ??
            Math.max(0, Date.parse(loaded.events.at(-1)?.at ?? '') - Date.parse(loaded.events[0]?.at ?? '')),
          outcome: outcomeLine(progress.format, loaded.format.transcript(loaded.state)) ?? '',
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
          startedAt: '',
          activeMs: null,
          outcome: '',
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
