/**
 * The shared run store on Postgres. It keeps what the event log keeps (every committed step's
 * events, in order) and what a team of workers needs to share runs: each run's lease (which worker
 * drives it, until when, under which fencing number), its status, and stop requests.
 *
 * The guards against a doubled or stale turn:
 * - A commit locks the run's row and checks the committing worker still holds the lease under the
 *   epoch it claimed with; a worker that lost the run (paused past its lease, cut off) cannot append.
 * - The `(run_id, seq)` primary key refuses a second append at a sequence number already taken.
 *
 * Every timestamp comes from the database's clock, so hosts whose clocks differ agree on leases.
 */
import type pg from 'pg';
import { DatabaseError, ExitCode } from '../../core/errors.js';
import type { RunEvent } from '../../core/events.js';
import { type ConnectionOptions, createPool, PostgresConnection } from './postgres-connection.js';

/** The lease a worker holds on a run while it drives it. */
export interface RunLease {
  runId: string;
  owner: string;
  epoch: number;
}

export interface ClaimedRun extends RunLease {
  format: string;
  scenario: string;
  simulated: boolean;
  /** The run's committed events, as the JSON lines of its log. */
  lines: string[];
}

export interface DatabaseRunRow {
  runId: string;
  format: string;
  topic: string;
  batchId: string | null;
  status: string;
  simulated: boolean;
  nextSeq: number;
  owner: string | null;
  leaseExpiresAt: Date | null;
  stopRequested: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewRun {
  runId: string;
  format: string;
  topic: string;
  scenario: string;
  batchId?: string;
  simulated?: boolean;
}

/** The run was taken over by another worker, or ended by someone else: this worker must not write. */
export class LeaseLostError extends DatabaseError {
  override name = 'LeaseLostError';
  constructor(runId: string, detail: string) {
    super(`the run ${runId} is no longer this worker's (${detail}); nothing more is written for it here`, {
      exitCode: ExitCode.runLocked,
    });
  }
}

/** Statuses a worker claims from the queue: a queued run, or a running one whose driver is gone. */
const QUEUED_OR_RUNNING = ['queued', 'running'];
/** `resume` also takes a run that stopped or failed. */
const RESUMABLE = ['queued', 'running', 'stopped', 'failed'];

export class RunDatabase extends PostgresConnection {
  /**
   * Connects and checks the schema: a database without Agora's tables, or with an older or newer
   * version of them, is refused with what to do (unless `forMigration`).
   */
  static async open(url: string, options: ConnectionOptions = {}): Promise<RunDatabase> {
    const database = new RunDatabase(createPool(url, options), url);
    try {
      await database.query('SELECT 1');
      if (!options.forMigration) await database.checkSchema();
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  }

  /** Records a batch's record once (the first one given stays). */
  async addBatch(batchId: string, record: string, client?: pg.PoolClient): Promise<void> {
    await this.query(
      'INSERT INTO agora_batches (batch_id, record) VALUES ($1, $2) ON CONFLICT (batch_id) DO NOTHING',
      [batchId, record],
      client,
    );
  }

  /** Every batch's record, as the JSON text of its plan.json. */
  async batches(): Promise<Array<{ batchId: string; record: string }>> {
    const { rows } = await this.query<{ batch_id: string; record: string }>(
      'SELECT batch_id, record FROM agora_batches ORDER BY created_at, batch_id',
    );
    return rows.map((row) => ({ batchId: row.batch_id, record: row.record }));
  }

  /** Records a run to be driven; false when a run with that id is already there. */
  async addRun(run: NewRun, client?: pg.PoolClient): Promise<boolean> {
    const { rowCount } = await this.query(
      `INSERT INTO agora_runs (run_id, format, topic, scenario, batch_id, simulated)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (run_id) DO NOTHING`,
      [run.runId, run.format, run.topic, run.scenario, run.batchId ?? null, run.simulated ?? false],
      client,
    );
    return rowCount === 1;
  }

  /**
   * Takes the lease on a run for `owner`, when no live worker holds it: a queued run, or one whose
   * lease ran out. The epoch goes up by one, which fences off the previous holder. Null when the run
   * is finished, stopped, held by a live worker, or not there.
   */
  async claim(
    runId: string,
    owner: string,
    leaseSeconds: number,
    options: { resume?: boolean } = {},
  ): Promise<ClaimedRun | null> {
    return this.transaction(async (client) => {
      const { rows } = await this.query<{
        lease_epoch: number;
        format: string;
        scenario: string;
        simulated: boolean;
      }>(
        `UPDATE agora_runs
            SET owner = $2, lease_epoch = lease_epoch + 1, status = 'running', updated_at = now(),
                lease_expires_at = now() + make_interval(secs => $3), stop_requested = false
          WHERE run_id = $1 AND status = ANY($4)
            AND (owner IS NULL OR lease_expires_at IS NULL OR lease_expires_at < now())
            AND (NOT stop_requested OR $5)
      RETURNING lease_epoch, format, scenario, simulated`,
        [runId, owner, leaseSeconds, options.resume ? RESUMABLE : QUEUED_OR_RUNNING, options.resume === true],
        client,
      );
      const row = rows[0];
      if (!row) return null;
      const events = await this.query<{ line: string }>(
        'SELECT line FROM agora_events WHERE run_id = $1 ORDER BY seq',
        [runId],
        client,
      );
      return {
        runId,
        owner,
        epoch: row.lease_epoch,
        format: row.format,
        scenario: row.scenario,
        simulated: row.simulated,
        lines: events.rows.map((event) => event.line),
      };
    });
  }

  /**
   * Commits a completed step's events, in one transaction, if `lease` still holds the run; renews
   * the lease; notifies listeners. Returns whether a stop was asked for. A run-end releases the run.
   */
  async commit(
    lease: RunLease,
    events: RunEvent[],
    leaseSeconds: number,
  ): Promise<{ stopRequested: boolean }> {
    if (events.length === 0) return { stopRequested: false };
    return this.transaction(async (client) => {
      const { rows } = await this.query<{
        owner: string | null;
        lease_epoch: number;
        next_seq: number;
        stop_requested: boolean;
      }>(
        'SELECT owner, lease_epoch, next_seq, stop_requested FROM agora_runs WHERE run_id = $1 FOR UPDATE',
        [lease.runId],
        client,
      );
      const row = rows[0];
      if (!row) throw new LeaseLostError(lease.runId, 'it is no longer in the database');
      if (row.owner !== lease.owner || row.lease_epoch !== lease.epoch) {
        throw new LeaseLostError(lease.runId, 'another worker took it over after this one missed its lease');
      }
      const first = events[0] as RunEvent;
      if (first.seq !== row.next_seq) {
        throw new LeaseLostError(
          lease.runId,
          `the database's next event is ${row.next_seq}, not ${first.seq}`,
        );
      }
      await this.query(
        `INSERT INTO agora_events (run_id, seq, type, line, worker)
         SELECT $1, seq, type, line, $5 FROM unnest($2::int[], $3::text[], $4::text[]) AS e(seq, type, line)`,
        [
          lease.runId,
          events.map((event) => event.seq),
          events.map((event) => event.type),
          events.map((event) => JSON.stringify(event)),
          lease.owner,
        ],
        client,
      );
      const end = events.findLast((event) => event.type === 'run-end');
      const nextSeq = (events.at(-1) as RunEvent).seq + 1;
      if (end && end.type === 'run-end') {
        await this.query(
          `UPDATE agora_runs SET next_seq = $2, status = $3, updated_at = now(), owner = NULL,
                  lease_expires_at = NULL WHERE run_id = $1`,
          [lease.runId, nextSeq, end.status],
          client,
        );
      } else {
        await this.query(
          `UPDATE agora_runs SET next_seq = $2, updated_at = now(),
                  lease_expires_at = now() + make_interval(secs => $3) WHERE run_id = $1`,
          [lease.runId, nextSeq, leaseSeconds],
          client,
        );
      }
      await this.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, `${lease.runId} ${nextSeq}`], client);
      return { stopRequested: row.stop_requested };
    });
  }

  /** Renews a lease; null when it is no longer held, else whether a stop was asked for. */
  async renew(lease: RunLease, leaseSeconds: number): Promise<{ stopRequested: boolean } | null> {
    const { rows } = await this.query<{ stop_requested: boolean }>(
      `UPDATE agora_runs SET lease_expires_at = now() + make_interval(secs => $4)
        WHERE run_id = $1 AND owner = $2 AND lease_epoch = $3 AND status = 'running'
    RETURNING stop_requested`,
      [lease.runId, lease.owner, lease.epoch, leaseSeconds],
    );
    const row = rows[0];
    return row ? { stopRequested: row.stop_requested } : null;
  }

  /** Gives a run back without ending it (its worker is shutting down): another may claim it at once. */
  async release(lease: RunLease): Promise<void> {
    await this.query(
      `UPDATE agora_runs SET owner = NULL, lease_expires_at = NULL, updated_at = now()
        WHERE run_id = $1 AND owner = $2 AND lease_epoch = $3`,
      [lease.runId, lease.owner, lease.epoch],
    );
  }

  /**
   * Asks a run to stop. A queued run that no worker has started is stopped at once; a running one
   * stops after the step in flight. Returns the run's status before, or null when there is no such run.
   */
  async requestStop(runId: string): Promise<{ status: string; owner: string | null } | null> {
    return this.transaction(async (client) => {
      const { rows } = await this.query<{ status: string; owner: string | null }>(
        'SELECT status, owner FROM agora_runs WHERE run_id = $1 FOR UPDATE',
        [runId],
        client,
      );
      const row = rows[0];
      if (!row) return null;
      if (row.status === 'queued' && row.owner === null) {
        await this.query(
          "UPDATE agora_runs SET status = 'stopped', stop_requested = true, updated_at = now() WHERE run_id = $1",
          [runId],
          client,
        );
      } else if (row.status === 'running') {
        await this.query(
          'UPDATE agora_runs SET stop_requested = true, updated_at = now() WHERE run_id = $1',
          [runId],
          client,
        );
      }
      return row;
    });
  }

  /**
   * Runs still marked running whose lease ran out: their worker is gone. One that was asked to stop
   * is marked stopped instead (no worker will take it up again).
   */
  async orphans(): Promise<string[]> {
    await this.query(
      `UPDATE agora_runs SET status = 'stopped', owner = NULL, lease_expires_at = NULL, updated_at = now()
        WHERE status = 'running' AND stop_requested
          AND (lease_expires_at IS NULL OR lease_expires_at < now())`,
    );
    const { rows } = await this.query<{ run_id: string }>(
      `SELECT run_id FROM agora_runs WHERE status = 'running'
          AND (lease_expires_at IS NULL OR lease_expires_at < now()) ORDER BY queue_order`,
    );
    return rows.map((row) => row.run_id);
  }

  /** Puts a run that never started back in the queue's state (its job is sent by the caller). */
  async requeue(runId: string, client?: pg.PoolClient): Promise<void> {
    await this.query(
      "UPDATE agora_runs SET status = 'queued', stop_requested = false, owner = NULL, lease_expires_at = NULL, updated_at = now() WHERE run_id = $1 AND next_seq = 0",
      [runId],
      client,
    );
  }

  /** Ends a run that could not start (its scenario could not be settled): it holds no events. */
  async markFailed(lease: RunLease): Promise<void> {
    await this.query(
      `UPDATE agora_runs SET status = 'failed', owner = NULL, lease_expires_at = NULL, updated_at = now()
        WHERE run_id = $1 AND owner = $2 AND lease_epoch = $3`,
      [lease.runId, lease.owner, lease.epoch],
    );
  }

  /** Whether any run is waiting for a worker or being driven. */
  async pending(): Promise<number> {
    const { rows } = await this.query<{ count: string }>(
      "SELECT count(*) AS count FROM agora_runs WHERE status IN ('queued', 'running')",
    );
    return Number(rows[0]?.count ?? 0);
  }

  /** Every run's row, or only those of `runIds`. */
  async runs(runIds?: string[]): Promise<DatabaseRunRow[]> {
    const { rows } = await this.query<Record<string, unknown>>(
      `SELECT run_id, format, topic, batch_id, status, simulated, next_seq, owner, lease_expires_at,
              stop_requested, created_at, updated_at FROM agora_runs
        WHERE $1::text[] IS NULL OR run_id = ANY($1) ORDER BY queue_order`,
      [runIds ?? null],
    );
    return rows.map((row) => ({
      runId: row.run_id as string,
      format: row.format as string,
      topic: row.topic as string,
      batchId: (row.batch_id as string | null) ?? null,
      status: row.status as string,
      simulated: row.simulated as boolean,
      nextSeq: row.next_seq as number,
      owner: (row.owner as string | null) ?? null,
      leaseExpiresAt: (row.lease_expires_at as Date | null) ?? null,
      stopRequested: row.stop_requested as boolean,
      createdAt: row.created_at as Date,
      updatedAt: row.updated_at as Date,
    }));
  }

  /** A run's committed events from `fromSeq` on, as the JSON lines of its log. */
  async lines(runId: string, fromSeq = 0): Promise<string[]> {
    const { rows } = await this.query<{ line: string }>(
      'SELECT line FROM agora_events WHERE run_id = $1 AND seq >= $2 ORDER BY seq',
      [runId, fromSeq],
    );
    return rows.map((row) => row.line);
  }

  /**
   * Copies a finished or stopped run in from its log's lines. Idempotent: the same run again is
   * left as it is; a different run under the same id is refused.
   */
  async importRun(run: NewRun & { status: string }, lines: string[]): Promise<'added' | 'present'> {
    return this.transaction(async (client) => {
      const added = await this.addRun(run, client);
      if (!added) {
        const present = await this.query<{ line: string }>(
          'SELECT line FROM agora_events WHERE run_id = $1 ORDER BY seq',
          [run.runId],
          client,
        );
        const same =
          present.rows.length === lines.length && present.rows.every((row, at) => row.line === lines[at]);
        if (same) return 'present';
        throw new DatabaseError(
          `the database already holds a different run with the id ${run.runId}; it is left as it is`,
          { exitCode: ExitCode.usage },
        );
      }
      await this.query(
        `INSERT INTO agora_events (run_id, seq, type, line)
         SELECT $1, seq - 1, type, line FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS e(type, line, seq)`,
        [run.runId, lines.map((line) => (JSON.parse(line) as RunEvent).type), lines],
        client,
      );
      await this.query(
        'UPDATE agora_runs SET status = $2, next_seq = $3, updated_at = now() WHERE run_id = $1',
        [run.runId, run.status, lines.length],
        client,
      );
      await this.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, `${run.runId} ${lines.length}`], client);
      return 'added';
    });
  }
}

/** The channel a commit notifies, with `<run id> <next seq>` as its payload. */
export const EVENTS_CHANNEL = 'agora_events';
