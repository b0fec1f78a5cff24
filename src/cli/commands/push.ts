/**
 * `agora push <run or runs folder ...> --database URL`: copies local runs into the shared database,
 * event lines as they are. A run being written right now is refused (push it once it has ended or
 * stopped); a run already in the database is left as it is when it is the same, and refused when a
 * different run has its id.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { plural } from '../../core/plural.js';
import { formatNamed } from '../../formats/index.js';
import { loadRun } from '../../manager/debate-manager.js';
import { BATCHES_FOLDER, batchesOfRuns } from '../../manager/indexing.js';
import { databaseUrl } from '../../store/postgres/database-url.js';
import { RunDatabase } from '../../store/postgres/run-database.js';
import { lockOwner } from '../../store/run-lock.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { SHARED_DATABASE } from '../common-options.js';
import type { CliIo } from '../io.js';

/** The run folders named: a run folder itself, or every run folder in a runs folder. */
function runFolders(inputs: string[], cwd: string): string[] {
  const found: string[] = [];
  for (const input of inputs) {
    const dir = path.resolve(cwd, input);
    if (existsSync(path.join(dir, 'events.jsonl'))) found.push(dir);
    else if (existsSync(dir)) {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const child = path.join(dir, entry.name);
        if (
          entry.isDirectory() &&
          !entry.name.startsWith('.') &&
          existsSync(path.join(child, 'events.jsonl'))
        )
          found.push(child);
      }
    } else throw new UsageError(`${input} does not exist`);
  }
  if (found.length === 0) throw new UsageError(`no run folders in ${inputs.join(', ')}`);
  return found.sort();
}

const PUSH_OPTIONS = { database: SHARED_DATABASE } as const satisfies OptionSpecs;

export const pushCommand = defineCommand({
  name: 'push',
  usage: '<run or runs folder...> --database URL',
  listing: { term: 'push <runs>', text: ['copy runs into the database (--database URL)'] },
  description: 'Copies local runs into the shared database, their event logs line for line.',
  options: PUSH_OPTIONS,
  run: pushRuns,
});

async function pushRuns(
  { values, positionals }: CommandInput<typeof PUSH_OPTIONS>,
  io: CliIo,
): Promise<number> {
  const url = databaseUrl(values.database, io.env);
  if (url === undefined)
    throw new UsageError(
      'name the database to copy into: `agora push transcripts/ --database postgres://...`',
    );
  if (positionals.length === 0)
    throw new UsageError('name runs or runs folders to copy, e.g. `agora push transcripts/`');
  const folders = runFolders(positionals, io.cwd);
  const database = await RunDatabase.open(url);
  let added = 0;
  let present = 0;
  const skipped: string[] = [];
  try {
    for (const runDir of folders) {
      if (lockOwner(runDir) !== null) {
        skipped.push(`${path.basename(runDir)} (being written by process ${lockOwner(runDir)})`);
        continue;
      }
      const loaded = loadRun(runDir, formatNamed);
      const text = readFileSync(loaded.paths.events, 'utf8');
      const lines = text.split('\n').slice(0, loaded.events.length);
      const progress = loaded.format.progress(loaded.state);
      const batch = batchesOfRuns(path.dirname(runDir)).get(loaded.runId);
      const batchFile = batch
        ? path.join(path.dirname(runDir), BATCHES_FOLDER, batch, 'plan.json')
        : undefined;
      if (batch && batchFile && existsSync(batchFile))
        await database.addBatch(batch, readFileSync(batchFile, 'utf8'));
      const start = loaded.events[0];
      const result = await database.importRun(
        {
          runId: loaded.runId,
          format: loaded.format.name,
          topic: loaded.scenario.topic,
          scenario: JSON.stringify(loaded.scenario),
          simulated: start?.type === 'run-start' && start.simulated === true,
          // A run whose writer is gone without an end is stopped: `resume --database` continues it.
          status: progress.status === 'running' ? 'stopped' : progress.status,
          ...(batch ? { batchId: batch } : {}),
        },
        lines,
      );
      if (result === 'added') added += 1;
      else present += 1;
    }
  } finally {
    await database.close();
  }
  io.stdout.write(
    `Pushed ${plural(added, 'run')}${present ? ` (${plural(present, 'run')} already there)` : ''}.\n`,
  );
  for (const line of skipped) io.stderr.write(`skipped ${line}\n`);
  return 0;
}
