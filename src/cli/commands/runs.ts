/** `agora runs`: the runs in the runs folder, with status, topic, progress and stop reason. */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Table from 'cli-table3';
import { AgoraError } from '../../core/errors.js';
import { formatNamed } from '../../formats/index.js';
import { loadRun } from '../../manager/debate-manager.js';
import { lockOwner } from '../../store/run-lock.js';
import type { CliIo } from '../io.js';
import { parseCommand } from '../parse.js';

export interface RunListing {
  runId: string;
  runDir: string;
  format: string;
  status: string;
  topic: string;
  rounds: string;
  stopReason: string;
}

export function listRuns(outDir: string): RunListing[] {
  if (!existsSync(outDir)) return [];
  const listings: RunListing[] = [];
  for (const name of readdirSync(outDir).sort()) {
    const runDir = path.join(outDir, name);
    if (!existsSync(path.join(runDir, 'events.jsonl'))) continue;
    try {
      const loaded = loadRun(runDir, formatNamed);
      const progress = loaded.format.progress(loaded.state);
      const live = lockOwner(runDir) !== null;
      const unfinished = progress.status === 'running';
      listings.push({
        runId: progress.runId,
        runDir,
        format: progress.format,
        status: unfinished ? (live ? 'running' : 'interrupted') : progress.status,
        topic: progress.topic,
        rounds: `${progress.done}/${progress.total}`,
        stopReason:
          progress.stopReason ?? (unfinished && !live ? 'process ended without finishing; resume it' : ''),
      });
    } catch (error) {
      const reason = error instanceof AgoraError ? error.message : String(error);
      listings.push({
        runId: name,
        runDir,
        format: '',
        status: 'damaged',
        topic: '',
        rounds: '',
        stopReason: reason,
      });
    }
  }
  return listings;
}

export async function runsCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand('runs', argv, { out: { type: 'string' }, json: { type: 'boolean' } });
  const outDir = path.resolve(io.cwd, values.out ?? 'transcripts');
  const runs = listRuns(outDir);
  if (values.json) {
    io.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
    return 0;
  }
  if (runs.length === 0) {
    io.stdout.write(`No runs in ${outDir}.\n`);
    return 0;
  }
  const table = new Table({
    head: ['Run', 'Format', 'Status', 'Topic', 'Progress', 'Stop reason'],
    style: { head: [], border: [] },
  });
  for (const run of runs)
    table.push([run.runId, run.format, run.status, run.topic, run.rounds, run.stopReason]);
  io.stdout.write(`${table.toString()}\n`);
  return 0;
}
