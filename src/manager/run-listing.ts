import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { isSimulated } from '../core/events.js';
import { formatNamed } from '../formats/index.js';
import { outcomeLine } from '../formats/outcome-line.js';
import { derivedFilesStale } from '../store/derived-files.js';
import { inspectRunFolder, type RunFolderState } from '../store/run-folder.js';
import { startAdvice } from '../store/run-id.js';
import { RunIndex } from '../store/run-index.js';
import { lockOwner } from '../store/run-lock.js';
import { type RunPlaces, runSearchFolders, singlePlace } from '../store/run-places.js';
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
  'unstarted',
  'starting',
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
  /** When the run started (ISO time), '' when unknown. */
  startedAt: string;
  /** Time spent running, pauses between a stop and a resume left out; null when unknown. */
  activeMs: number | null;
  /** How it came out, in one line; '' while undecided. */
  outcome: string;
  /** Spoken by Agora's built-in simulator (a demo), not by models. */
  simulated: boolean;
}

function blankListing(runId: string, runDir: string): RunListing {
  return {
    runId,
    runDir,
    format: '',
    status: '',
    topic: '',
    models: '',
    batch: '',
    progress: '',
    stopReason: '',
    failedSteps: 0,
    startedAt: '',
    activeMs: null,
    outcome: '',
    simulated: false,
  };
}

/** The folders under `outDir` that are runs, started or not, or were runs until their log was lost. */
function listedFolders(outDir: string): Array<{ runDir: string; folder: RunFolderState }> {
  if (!existsSync(outDir)) return [];
  return readdirSync(outDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => path.join(outDir, entry.name))
    .sort()
    .map((runDir) => ({ runDir, folder: inspectRunFolder(runDir) }))
    .filter(({ folder }) => ['started', 'unstarted', 'damaged'].includes(folder.kind));
}

/**
 * Every run in the places runs are kept (or in one folder): from the run index, and from their
 * logs for runs not indexed yet or still going.
 */
export async function listRuns(where: string | RunPlaces): Promise<RunListing[]> {
  const places = typeof where === 'string' ? singlePlace(where) : where;
  const outDir = places.runs;
  const folders = runSearchFolders(places);
  let index: RunIndex;
  try {
    index = openRunIndex(outDir, formatNamed, folders);
  } catch {
    // The index is a cache of the logs: when it cannot be built (a full or read-only disk), the
    // runs are listed from their logs alone, which is what matters after such a failure.
    index = RunIndex.open(':memory:');
  }
  const indexed = new Map<string, RunListing>();
  try {
    const result = index.query(
      'SELECT run_id, run_dir, format, status, topic, models, batch_id, done, total, stop_reason, failed_steps, started_at, active_ms, outcome, simulated FROM runs ORDER BY run_id',
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
      simulated,
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
        simulated: simulated === 1,
      });
    }
  } finally {
    index.close();
  }
  const listings: RunListing[] = [];
  const found = folders
    .flatMap((each) => listedFolders(each))
    .sort((a, b) => path.basename(a.runDir).localeCompare(path.basename(b.runDir)));
  for (const { runDir, folder } of found) {
    const name = path.basename(runDir);
    const live = lockOwner(runDir) !== null;
    if (folder.kind !== 'started') {
      // A lost log is reported, not hidden; a run that never started says how to start it.
      listings.push({
        ...blankListing(name, runDir),
        status: folder.kind === 'damaged' ? 'damaged' : live ? 'starting' : 'unstarted',
        stopReason:
          folder.kind === 'damaged'
            ? folder.reason
            : live
              ? ''
              : `never started (the process ended before its first event); ${startAdvice(runDir)}`,
      });
      continue;
    }
    let listing = indexed.get(name);
    // A log newer than the run's transcripts that could not be read again (changed by hand) is read
    // here, so the listing names what is wrong with it.
    if (!listing || live || listing.status === 'running' || derivedFilesStale(runDir)) {
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
          outcome:
            outcomeLine(progress.format, {
              ...loaded.format.transcript(loaded.state),
              failedSteps: progress.failedSteps,
            }) ?? '',
          simulated: isSimulated(loaded.events),
        };
      } catch (error) {
        listing = { ...blankListing(name, runDir), status: 'damaged', stopReason: (error as Error).message };
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
