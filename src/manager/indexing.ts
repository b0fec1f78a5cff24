/** Keeps the run index in step with the event logs: one run at a time, or rebuilt from scratch. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AgoraError, ExitCode } from '../core/errors.js';
import type { FormatLookup } from '../formats/format-definition.js';
import { outcomeLine } from '../formats/outcome-line.js';
import { indexRows } from '../store/index-rows.js';
import { INDEX_FILE, RunIndex, runFolders, updateIndex } from '../store/run-index.js';
import { staleRuns } from '../store/stale-runs.js';
import { loadRun } from './debate-manager.js';

export interface BatchRecord {
  batchId: string;
  createdAt: string;
  plan: unknown;
  runs: Array<{
    batch_id: string;
    idx: number;
    run_id: string;
    scenario_file: string;
    seed: number;
    lineup: string;
  }>;
}

export const BATCHES_FOLDER = 'batches';

function rowsFor(runDir: string, formats: FormatLookup, batchId: string | null) {
  const loaded = loadRun(runDir, formats);
  const outcome = outcomeLine(loaded.format.name, {
    ...loaded.format.transcript(loaded.state),
    failedSteps: loaded.format.failures(loaded.state).length,
  });
  return indexRows(loaded.events, loaded.format.progress(loaded.state), runDir, batchId, outcome);
}

/** Which batch each run belongs to, from the batch plans: the first plan that lists it. */
export function batchesOfRuns(outDir: string): Map<string, string> {
  const batchOf = new Map<string, string>();
  for (const batch of readBatchRecords(outDir)) {
    for (const run of batch.runs) if (!batchOf.has(run.run_id)) batchOf.set(run.run_id, batch.batchId);
  }
  return batchOf;
}

/** Records (or refreshes) one run in the index. */
export function indexRun(outDir: string, runDir: string, formats: FormatLookup) {
  indexRuns(outDir, [runDir], formats);
}

/**
 * Records several runs in one transaction. `batchOf` saves reading every batch plan again when
 * the caller already knows them.
 */
export function indexRuns(
  outDir: string,
  runDirs: readonly string[],
  formats: FormatLookup,
  batchOf: ReadonlyMap<string, string> = batchesOfRuns(outDir),
) {
  if (runDirs.length === 0) return;
  const rows = runDirs.map((runDir) => rowsFor(runDir, formats, batchOf.get(path.basename(runDir)) ?? null));
  updateIndex(outDir, (index) => index.putRuns(rows));
}

/** Records a batch's plan in the index. */
export function indexBatch(outDir: string, batch: BatchRecord) {
  updateIndex(outDir, (index) => index.putBatch(batch));
}

export function readBatchRecords(outDir: string): BatchRecord[] {
  const folder = path.join(outDir, BATCHES_FOLDER);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .sort()
    .map((name) => path.join(folder, name, 'plan.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as BatchRecord);
}

/**
 * Builds the index anew from every run folder's log and every batch plan, in one transaction
 * (readers see the old index until it commits), and returns it open. The index and the batches
 * are those of the runs folder (`outDir`); `more` are other folders whose runs it also holds (a
 * council's records folder).
 */
export function rebuildIndex(
  outDir: string,
  formats: FormatLookup,
  file = path.join(outDir, INDEX_FILE),
  more: readonly string[] = [],
) {
  const batches = readBatchRecords(outDir);
  const batchOf = batchesOfRuns(outDir);
  const index = RunIndex.open(file);
  const skipped: string[] = [];
  try {
    index.replaceAll((sink) => {
      const folders = [...new Set([outDir, ...more])];
      for (const runDir of folders.flatMap((folder) => runFolders(folder))) {
        try {
          sink.putRun(rowsFor(runDir, formats, batchOf.get(path.basename(runDir)) ?? null));
        } catch (error) {
          skipped.push(`${path.basename(runDir)}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      for (const batch of batches) sink.putBatch(batch);
    });
  } catch (error) {
    index.close();
    throw error;
  }
  return { index, skipped };
}

/**
 * Reads again the runs whose transcripts or index row are behind their logs (a process killed
 * between its last event and their rewrite): reading a run rewrites its stale transcripts
 * (loadRun), and indexing records it as it is. A run whose log no longer reads is taken out of
 * the index; an index that cannot be written is left as it is.
 */
export function refreshStaleRuns(
  outDir: string,
  formats: FormatLookup,
  more: readonly string[] = [],
): string[] {
  const refreshed: string[] = [];
  for (const runDir of staleRuns(outDir, more)) {
    try {
      indexRun(outDir, runDir, formats);
      refreshed.push(runDir);
    } catch (error) {
      // A log that no longer reads (damaged, changed by hand) is not counted as it was: the index
      // forgets it, as a rebuilt one would; `runs`, `show` and `resume` name what is wrong with it.
      if (error instanceof AgoraError && error.exitCode === ExitCode.runCorrupt) {
        try {
          updateIndex(outDir, (index) => index.removeRun(path.basename(runDir)));
        } catch {
          // The index cannot be written: it is a cache, and `reindex` rebuilds it.
        }
      }
    }
  }
  return refreshed;
}

/**
 * The runs folder's index for reading, built from the logs first when there is none yet (with the
 * runs of `more` folders too); runs behind their logs are read again first.
 */
export function openRunIndex(outDir: string, formats: FormatLookup, more: readonly string[] = []): RunIndex {
  const file = path.join(outDir, INDEX_FILE);
  if (existsSync(file)) {
    refreshStaleRuns(outDir, formats, more);
    return RunIndex.open(file, { readonly: true });
  }
  // No runs folder yet: an empty index, without creating the folder.
  if (!existsSync(outDir)) return RunIndex.open(':memory:');
  return rebuildIndex(outDir, formats, file, more).index;
}
