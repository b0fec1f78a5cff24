/**
 * `agora migrate --database URL`: creates or upgrades Agora's tables (and its job queue's) in the
 * shared database. Safe to run again; several at once wait for each other.
 */
import { UsageError } from '../../core/errors.js';
import { databaseUrl, redactedUrl } from '../../store/postgres/database-url.js';
import { SCHEMA_VERSION } from '../../store/postgres/migrations.js';
import { RunDatabase } from '../../store/postgres/run-database.js';
import { WorkQueue } from '../../store/postgres/work-queue.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import type { CliIo } from '../io.js';

const MIGRATE_OPTIONS = {
  database: {
    value: 'URL',
    help: 'postgres://USER:PASSWORD@HOST:PORT/DATABASE (default: AGORA_DATABASE_URL)',
  },
} as const satisfies OptionSpecs;

export const migrateCommand = defineCommand({
  name: 'migrate',
  usage: '--database URL',
  listing: {
    term: 'migrate --database URL',
    text: ["create or upgrade Agora's tables in a shared Postgres database"],
  },
  description: "Creates or upgrades Agora's tables and job queue in a Postgres database; safe to run again.",
  options: MIGRATE_OPTIONS,
  run: migrate,
});

async function migrate({ values }: CommandInput<typeof MIGRATE_OPTIONS>, io: CliIo): Promise<number> {
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
