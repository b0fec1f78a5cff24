/**
 * `agora runs`: runs with status, format, topic, progress and stop reason, from the run index (a
 * run that is not indexed yet, such as one still running, is read from its log). Filters:
 * --status, --format, --topic (a substring), --model, --batch; --json or --csv.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { formatNamed } from '../../formats/index.js';
import { loadRun } from '../../manager/debate-manager.js';
import { rebuildIndex } from '../../manager/indexing.js';
import { INDEX_FILE, RunIndex, runFolders } from '../../store/run-index.js';
import { lockOwner } from '../../store/run-lock.js';
import type { CliIo } from '../io.js';
import { parseCommand } from '../parse.js';
import { renderTable } from '../table-output.js';

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
}

export async function listRuns(outDir: string): Promise<RunListing[]> {
  const file = path.join(outDir, INDEX_FILE);
  const index = existsSync(file)
    ? await RunIndex.open(file)
    : (await rebuildIndex(outDir, formatNamed)).index;
  const indexed = new Map<string, RunListing>();
  try {
    const result = index.query(
      'SELECT run_id, run_dir, format, status, topic, models, batch_id, done, total, stop_reason FROM runs ORDER BY run_id',
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

export async function runsCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand('runs', argv, {
    out: { type: 'string' },
    json: { type: 'boolean' },
    csv: { type: 'boolean' },
    status: { type: 'string' },
    format: { type: 'string' },
    topic: { type: 'string' },
    model: { type: 'string' },
    batch: { type: 'string' },
  });
  const outDir = path.resolve(io.cwd, values.out ?? 'transcripts');
  const runs = (await listRuns(outDir)).filter(
    (run) =>
      (!values.status || run.status === values.status) &&
      (!values.format || run.format === values.format) &&
      (!values.topic || run.topic.toLowerCase().includes(values.topic.toLowerCase())) &&
      (!values.model ||
        run.models
          .split(',')
          .some((model) => model === values.model || model === `${values.model}:latest`)) &&
      (!values.batch || run.batch === values.batch),
  );
  if (values.json) {
    io.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
    return 0;
  }
  if (runs.length === 0 && !values.csv) {
    io.stdout.write(`No runs in ${outDir}${Object.keys(values).length > 1 ? ' match those filters' : ''}.\n`);
    return 0;
  }
  const columns = ['Run', 'Format', 'Status', 'Topic', 'Models', 'Progress', 'Stop reason'];
  const rows = runs.map((run) => [
    run.runId,
    run.format,
    run.status,
    run.topic,
    run.models,
    run.progress,
    run.stopReason,
  ]);
  io.stdout.write(renderTable(columns, rows, values.csv ? 'csv' : 'table'));
  return 0;
}
