/** Keeps the run index in step with the event logs: one run at a time, or rebuilt from scratch. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { indexRows } from '../store/index-rows.js';
import { INDEX_FILE, RunIndex, runFolders, updateIndex } from '../store/run-index.js';
import { type FormatLookup, loadRun } from './debate-manager.js';

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
  return indexRows(loaded.events, loaded.format.progress(loaded.state), runDir, batchId);
}

/** The batch a run belongs to, from the batch plans (the same answer a rebuild gives). */
function batchOfRun(outDir: string, runId: string): string | null {
  for (const batch of readBatchRecords(outDir)) {
    if (batch.runs.some((run) => run.run_id === runId)) return batch.batchId;
  }
  return null;
}

/** Records (or refreshes) one run in the index. */
export async function indexRun(outDir: string, runDir: string, formats: FormatLookup) {
  await indexRuns(outDir, [runDir], formats);
}

/** Records several runs in one update: the index is read and written once, not once per run. */
export async function indexRuns(outDir: string, runDirs: readonly string[], formats: FormatLookup) {
  if (runDirs.length === 0) return;
  const rows = runDirs.map((runDir) => rowsFor(runDir, formats, batchOfRun(outDir, path.basename(runDir))));
  await updateIndex(outDir, (index) => {
    for (const row of rows) index.putRun(row);
  });
}

/** Records a batch's plan in the index. */
export async function indexBatch(outDir: string, batch: BatchRecord) {
  await updateIndex(outDir, (index) => index.putBatch(batch));
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

/** Builds the index anew from every run folder's log and every batch plan. */
export async function rebuildIndex(
  outDir: string,
  formats: FormatLookup,
  file = path.join(outDir, INDEX_FILE),
) {
  const batches = readBatchRecords(outDir);
  const batchOf = new Map<string, string>();
  for (const batch of batches) for (const run of batch.runs) batchOf.set(run.run_id, batch.batchId);
  const index = await RunIndex.open(file, { fresh: true });
  const skipped: string[] = [];
  for (const runDir of runFolders(outDir)) {
    try {
      index.putRun(rowsFor(runDir, formats, batchOf.get(path.basename(runDir)) ?? null));
    } catch (error) {
      skipped.push(`${path.basename(runDir)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const batch of batches) index.putBatch(batch);
  return { index, skipped };
}
