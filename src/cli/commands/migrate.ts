/**
 * `agora migrate --database URL`: creates or upgrades Agora's tables (and its job queue's) in the
 * shared database. Safe to run again; several at once wait for each other.
 */
import { UsageError } from '../../core/errors.js';
import { databaseUrl, redactedUrl } from '../../store/postgres/database-url.js';
import { SCHEMA_VERSION } from '../../store/postgres/migrations.js';
import { RunDatabase } from '../../store/postgres/run-database.js';
import { WorkQueue } from '../../store/postgres/work-queue.js';
import { DATABASE_FLAG } from '../database-option.js';
import type { CliIo } from '../io.js';
import { parseCommand } from '../parse.js';

export async function migrateCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand('migrate', argv, { ...DATABASE_FLAG });
  const url = databaseUrl(values.database, io.env);
  if (url === undefined) {
    throw new UsageError(
      'name the database: `agora migrate --database postgres://USER:PASSWORD@HOST:PORT/DATABASE` (or set AGORA_DATABASE_URL)',
    );
  }
  const database = await RunDatabase.open(url, { forMigration: true });
  try {
    const applied = await database.migrate();
    const queue = await WorkQueue.start(url, { install: true });
    await queue.stop();
    io.stdout.write(
      applied.length === 0
        ? `The database at ${redactedUrl(url)} is up to date (schema version ${SCHEMA_VERSION}).\n`
        : `Migrated the database at ${redactedUrl(url)} to schema version ${SCHEMA_VERSION} (applied ${applied.join(', ')}).\n`,
    );
  } finally {
    await database.close();
  }
  return 0;
}
