/**
 * A connection pool to the shared Postgres database, with what every use of it needs: queries whose
 * failures are DatabaseErrors without the password in them, transactions, and the schema's version
 * checked and migrated.
 */
import pg from 'pg';
import { DatabaseError } from '../../core/errors.js';
import { redactedUrl, withoutPassword } from './database-url.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

const LOCK_MIGRATIONS = 727_001;

/**
 * How long the server lets a session sit idle inside a transaction before it ends it (see `open`).
 * A worker lowers it to its lease when that is shorter, so a takeover never waits longer for a
 * stalled holder's row lock than for its lease.
 */
export const STALLED_TRANSACTION_SECONDS = 10;

export interface ConnectionOptions {
  /** Connect to a database without Agora's tables (or with other versions of them), to migrate it. */
  forMigration?: boolean;
  poolSize?: number;
  /** How this process shows in the server's `pg_stat_activity`. */
  applicationName?: string;
  stalledTransactionSeconds?: number;
}

/** A pool whose sessions end a transaction left idle, and whose idle clients' errors do not end the process. */
export function createPool(url: string, options: ConnectionOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 4,
    application_name: options.applicationName ?? 'agora',
    // A process paused or cut off in the middle of a transaction (between its statements) would
    // hold the run's row lock for as long as it is gone, and every claim of that run would wait
    // behind it. The server ends such a session instead; its transaction is rolled back, so the
    // stalled process appends nothing. Agora's transactions never wait on anything between
    // their statements, so a healthy process never comes near this bound.
    idle_in_transaction_session_timeout: Math.round(
      (options.stalledTransactionSeconds ?? STALLED_TRANSACTION_SECONDS) * 1000,
    ),
  });
  // An idle client's error (the server restarting) must not end the process; the next query reports it.
  pool.on('error', () => undefined);
  // Nor may the error of a client in use between two queries (its session ended by the server):
  // the query that follows reports it.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

export class PostgresConnection {
  protected constructor(
    readonly pool: pg.Pool,
    readonly url: string,
  ) {}

  /** Runs a query; a failure becomes a DatabaseError without the password in it. */
  async query<Row extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
    client: pg.Pool | pg.PoolClient = this.pool,
  ): Promise<pg.QueryResult<Row>> {
    try {
      return await client.query<Row>(text, values);
    } catch (error) {
      throw this.failure(error);
    }
  }

  failure(error: unknown): unknown {
    if (error instanceof DatabaseError) return error;
    const code = (error as { code?: string }).code;
    const message = withoutPassword(error instanceof Error ? error.message : String(error), this.url);
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH') {
      return new DatabaseError(
        `cannot reach the database at ${redactedUrl(this.url)} (${message}); start Postgres there, or check --database / AGORA_DATABASE_URL`,
        { cause: error },
      );
    }
    if (code === '28P01' || code === '28000') {
      return new DatabaseError(
        `the database at ${redactedUrl(this.url)} refused the credentials (${message}); check the user and password in --database / AGORA_DATABASE_URL`,
        { cause: error },
      );
    }
    if (code === '3D000') {
      return new DatabaseError(
        `${message} at ${redactedUrl(this.url)}; create it (\`createdb\`), then run \`agora migrate --database URL\``,
        { cause: error },
      );
    }
    return new DatabaseError(`the database at ${redactedUrl(this.url)} failed: ${message}`, { cause: error });
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }

  /** The schema version the database holds: 0 when Agora's tables are not there. */
  async schemaVersion(): Promise<number> {
    const exists = await this.query<{ present: boolean }>(
      "SELECT to_regclass('agora_schema_version') IS NOT NULL AS present",
    );
    if (!exists.rows[0]?.present) return 0;
    const { rows } = await this.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM agora_schema_version',
    );
    return rows[0]?.version ?? 0;
  }

  async checkSchema(): Promise<void> {
    const version = await this.schemaVersion();
    if (version === SCHEMA_VERSION) return;
    const where = redactedUrl(this.url);
    if (version < SCHEMA_VERSION) {
      throw new DatabaseError(
        version === 0
          ? `the database at ${where} has no Agora tables yet; run \`agora migrate --database URL\` once to create them`
          : `the database at ${where} holds Agora's schema version ${version}, older than this program's ${SCHEMA_VERSION}; run \`agora migrate --database URL\` to upgrade it`,
      );
    }
    throw new DatabaseError(
      `the database at ${where} holds Agora's schema version ${version}, newer than this program's ${SCHEMA_VERSION}: it was upgraded by a newer Agora. Upgrade this Agora to use it; it is left unchanged`,
    );
  }

  /** Applies the missing migrations, each in its own transaction; returns the versions applied. */
  async migrate(): Promise<number[]> {
    const client = await this.pool.connect().catch((error) => {
      throw this.failure(error);
    });
    const applied: number[] = [];
    try {
      await this.query('SELECT pg_advisory_lock($1)', [LOCK_MIGRATIONS], client);
      await this.query(
        'CREATE TABLE IF NOT EXISTS agora_schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
        [],
        client,
      );
      const version = await this.schemaVersion();
      if (version > SCHEMA_VERSION) await this.checkSchema();
      for (const migration of MIGRATIONS.filter((m) => m.version > version)) {
        await this.query('BEGIN', [], client);
        try {
          await this.query(migration.sql, [], client);
          await this.query(
            'INSERT INTO agora_schema_version (version, name) VALUES ($1, $2)',
            [migration.version, migration.name],
            client,
          );
          await this.query('COMMIT', [], client);
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
        applied.push(migration.version);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK_MIGRATIONS]).catch(() => undefined);
      client.release();
    }
    return applied;
  }

  /** Runs `work` in one transaction. */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect().catch((error) => {
      throw this.failure(error);
    });
    let result: T;
    try {
      await this.query('BEGIN', [], client);
      result = await work(client);
      await this.query('COMMIT', [], client);
    } catch (error) {
      const rolledBack = await client.query('ROLLBACK').then(
        () => true,
        () => false,
      );
      // A client whose session is gone (or in an unknown state) is dropped, not reused.
      client.release(!rolledBack);
      throw this.failure(error);
    }
    client.release();
    return result;
  }
}
