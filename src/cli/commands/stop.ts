/** `agora stop <run>`: asks a run in another process to stop after the step in flight. */
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import { databaseUrl, redactedUrl } from '../../store/postgres/database-url.js';
import { RunDatabase } from '../../store/postgres/run-database.js';
import { lockOwner } from '../../store/run-lock.js';
import { runPlaces } from '../../store/run-places.js';
import { requestStop } from '../../store/stop-request.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { DATABASE, OUT } from '../common-options.js';
import { findRunDir } from '../find-run.js';
import type { CliIo } from '../io.js';
import { databaseRunId } from '../run-reference.js';

const STOP_OPTIONS = {
  out: OUT,
  database: DATABASE,
} as const satisfies OptionSpecs;

export const stopCommand = defineCommand({
  name: 'stop',
  usage: '<run> [options]',
  listing: { term: 'stop <run>', text: ['ask a run in another process to stop after the step in flight'] },
  description: 'Asks a run in another process to stop after the step in flight.',
  options: STOP_OPTIONS,
  run: stopRun,
});

async function stopRun(
  { values, positionals }: CommandInput<typeof STOP_OPTIONS>,
  io: CliIo,
): Promise<number> {
  const url = databaseUrl(values.database, io.env);
  if (url !== undefined) return stopInDatabase(positionals[0], url, io);
  const runDir = findRunDir(positionals[0], runPlaces(io.cwd, values.out), 'stop');
  const owner = lockOwner(runDir);
  if (owner === null) {
    io.stdout.write(`No process is running ${runDir}; nothing to stop.\n`);
    return ExitCode.ok;
  }
  requestStop(runDir);
  io.stdout.write(`Asked process ${owner} to stop ${path.basename(runDir)} after the step in flight.\n`);
  return ExitCode.ok;
}

/** A run in the shared database: its worker stops it after the step in flight; a queued one never starts. */
async function stopInDatabase(reference: string | undefined, url: string, io: CliIo): Promise<number> {
  if (!reference) throw new UsageError('name the run to stop: `agora stop <run id> --database URL`');
  const database = await RunDatabase.open(url);
  try {
    const runId = await databaseRunId(reference, database, `the database at ${redactedUrl(url)}`);
    const before = await database.requestStop(runId);
    if (before === null) {
      throw new UsageError(
        `the database at ${redactedUrl(url)} has no run ${runId}; \`agora runs --database URL\` lists its runs`,
      );
    }
    io.stdout.write(
      before.status === 'queued'
        ? `Stopped ${runId}: it was queued, and no worker will start it.\n`
        : before.status === 'running'
          ? `Asked ${before.owner ? `worker ${before.owner}` : 'its worker'} to stop ${runId} after the step in flight.\n`
          : `${runId} is ${before.status}; nothing to stop.\n`,
    );
  } finally {
    await database.close();
  }
  return ExitCode.ok;
}
