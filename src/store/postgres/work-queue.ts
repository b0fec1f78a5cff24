/**
 * The queue of debates waiting for a worker, on pg-boss (in its own schema, `agora_queue`). A job
 * says "drive run X"; the run's lease in `agora_runs`, not the job, says who drives it (see
 * docs/decisions/010-postgres-workers.md). Jobs are sent in the same transaction that records the
 * run, so a run is never recorded without its job, nor a job sent for a run that is not there.
 */

import type pg from 'pg';
import PgBoss from 'pg-boss';
import { DatabaseError } from '../../core/errors.js';
import { redactedUrl, withoutPassword } from './database-url.js';

export const QUEUE_SCHEMA = 'agora_queue';
export const DEBATES_QUEUE = 'agora-debates';

/**
 * A job is held only from a worker's fetch to its claim of the run (milliseconds); one held longer
 * belongs to a worker that died or stalled in between, and comes back to the queue after this long
 * (plus at most one maintenance interval and the retry delay).
 */
export const JOB_EXPIRY_SECONDS = 15;
const MAINTENANCE_SECONDS = 10;
/** A run taken over from a dead worker goes before debates that have not started. */
export const TAKEOVER_PRIORITY = 1;

export interface DebateJob {
  runId: string;
}

/** pg-boss's database hook, over a client in the caller's transaction. */
function inTransaction(client: pg.PoolClient) {
  return {
    executeSql: (text: string, values: unknown[]) => client.query(text, values),
  };
}

export class WorkQueue {
  private constructor(
    private readonly boss: PgBoss,
    private readonly url: string,
  ) {}

  /**
   * Starts pg-boss. Only `agora migrate` creates or upgrades its tables (`install`); workers also
   * run its maintenance (`maintain`): expiring jobs whose worker vanished between taking a job and
   * claiming the run.
   */
  static async start(url: string, options: { install?: boolean; maintain?: boolean } = {}) {
    const boss = new PgBoss({
      connectionString: url,
      schema: QUEUE_SCHEMA,
      migrate: options.install === true,
      supervise: options.maintain === true,
      schedule: false,
      max: 2,
      maintenanceIntervalSeconds: MAINTENANCE_SECONDS,
    });
    // pg-boss reports background errors as events; the next call reports what matters.
    boss.on('error', () => undefined);
    try {
      await boss.start();
      if (options.install) {
        const existing = await boss.getQueue(DEBATES_QUEUE);
        if (!existing) {
          // "short": at most one waiting job per run (its singleton key), so a run sent twice waits once.
          await boss.createQueue(DEBATES_QUEUE, {
            name: DEBATES_QUEUE,
            policy: 'short',
            retryLimit: 5,
            retryDelay: 5,
            expireInSeconds: 60,
          });
        }
      }
    } catch (error) {
      await boss.stop({ graceful: false, wait: false }).catch(() => undefined);
      throw new DatabaseError(
        `the job queue at ${redactedUrl(url)} could not start: ${withoutPassword((error as Error).message, url)}; run \`agora migrate --database URL\` first`,
        { cause: error },
      );
    }
    return new WorkQueue(boss, url);
  }

  /** Sends a run's job, inside the caller's transaction when `client` is given. */
  async send(runId: string, client?: pg.PoolClient, priority = 0): Promise<void> {
    await this.guard(() =>
      this.boss.send(DEBATES_QUEUE, { runId } satisfies DebateJob, {
        singletonKey: runId,
        priority,
        expireInSeconds: JOB_EXPIRY_SECONDS,
        ...(client ? { db: inTransaction(client) } : {}),
      }),
    );
  }

  /** Up to `count` waiting jobs, now this worker's to act on. */
  async take(count: number): Promise<Array<{ id: string; runId: string }>> {
    const jobs = await this.guard(() => this.boss.fetch<DebateJob>(DEBATES_QUEUE, { batchSize: count }));
    return jobs.map((job) => ({ id: job.id, runId: job.data.runId }));
  }

  async done(jobId: string): Promise<void> {
    await this.guard(() => this.boss.complete(DEBATES_QUEUE, jobId));
  }

  async waiting(): Promise<number> {
    return this.guard(() => this.boss.getQueueSize(DEBATES_QUEUE));
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, close: true }).catch(() => undefined);
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw new DatabaseError(
        `the job queue at ${redactedUrl(this.url)} failed: ${withoutPassword((error as Error).message, this.url)}`,
        { cause: error },
      );
    }
  }
}
