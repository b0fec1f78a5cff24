/** `agora stop <run>`: asks a run in another process to stop after the step in flight. */
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import { databaseUrl, redactedUrl } from '../../store/postgres/database-url.js';
import { RunDatabase } from '../../store/postgres/run-database.js';
import { lockOwner } from '../../store/run-lock.js';
import { runPlaces } from '../../store/run-places.js';
import { requestStop } from '../../store/stop-request.js';
import { DATABASE_FLAG } from '../database-option.js';
import { findRunDir } from '../find-run.js';
import type { CliIo } from '../io.js';
import { parseCommand } from '../parse.js';

export async function stopCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand('stop', argv, { out: { type: 'string' }, ...DATABASE_FLAG });
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
async function stopInDatabase(runId: string | undefined, url: string, io: CliIo): Promise<number> {
  if (!runId) throw new UsageError('name the run to stop: `agora stop <run id> --database URL`');
  const database = await RunDatabase.open(url);
  try {
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
