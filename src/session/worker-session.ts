/**
 * A worker's session: this host's model server checked and put behind its limit, the shared
 * database and its queue opened, and the worker loop started; each queued debate is settled for
 * the servers it runs on (formal sides, the smallest window) before its first event.
 */

import { startWorker, type WorkerSummary } from '../manager/worker-loop.js';
import { STALLED_TRANSACTION_SECONDS } from '../store/postgres/postgres-connection.js';
import { RunDatabase } from '../store/postgres/run-database.js';
import { WorkQueue } from '../store/postgres/work-queue.js';
import { openHostPool } from './host-pool.js';
import { settleForServers } from './prepare-scenario.js';

/** How often a worker looks for runs whose lease ran out: a quarter of the lease, from 1 s to 10 s. */
export function sweepSecondsFor(leaseSeconds: number): number {
  return Math.max(1, Math.min(10, leaseSeconds / 4));
}

/**
 * The longest a dead worker's run waits for a worker with a free slot: the lease it had left (a
 * whole lease, at worst: it was renewed just before the death), then a sweep of a live worker,
 * which comes at most a sweep interval and a poll later and takes the run in the same pass. When
 * every live worker is busy, the run waits on top of that for the first slot that frees.
 */
export function takeoverBound(leaseSeconds: number, pollSeconds: number): number {
  return leaseSeconds + sweepSecondsFor(leaseSeconds) + pollSeconds;
}

export interface WorkerSessionOptions {
  /** The shared database. */
  url: string;
  /** This host's Ollama, already resolved. */
  host: string;
  env: Record<string, string | undefined>;
  workerId: string;
  /** Debates (and model calls) at once on this host. */
  parallel: number;
  leaseSeconds: number;
  pollSeconds: number;
  /** Where this host keeps its working copies of runs. */
  workDir: string;
  requestTimeoutMs?: number;
  exitWhenIdle: boolean;
  /** Cuts the steps in flight. */
  signal: AbortSignal;
  /** One line about what the worker did (started, took over, handed over, ended a run). */
  report: (message: string) => void;
}

export interface WorkerSession {
  /** Finish the steps in flight, hand the runs back, take no more. */
  handOver(): void;
  /** Settles once the worker has stopped and let go of the database. */
  done: Promise<WorkerSummary>;
}

export async function startWorkerSession(options: WorkerSessionOptions): Promise<WorkerSession> {
  const { url, workerId, parallel, leaseSeconds } = options;
  const pool = await openHostPool({
    hosts: [options.host],
    perHost: parallel,
    env: options.env,
    ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
  });
  const database = await RunDatabase.open(url, {
    poolSize: parallel + 3,
    applicationName: `agora worker ${workerId}`,
    stalledTransactionSeconds: Math.min(STALLED_TRANSACTION_SECONDS, leaseSeconds),
  });
  let queue: WorkQueue | undefined;
  try {
    queue = await WorkQueue.start(url, { maintain: true });
    const worker = startWorker({
      database,
      queue,
      workerId,
      parallel,
      leaseSeconds,
      pollSeconds: options.pollSeconds,
      sweepSeconds: sweepSecondsFor(leaseSeconds),
      workDir: options.workDir,
      provider: pool.provider,
      providerFor: pool.providerFor,
      prepare: async (scenario) => {
        const fit = await settleForServers(scenario, pool.providerFor(scenario));
        if (fit.warning) options.report(`warning: ${fit.warning}`);
        return fit.scenario;
      },
      signal: options.signal,
      exitWhenIdle: options.exitWhenIdle,
      report: options.report,
    });
    const opened = queue;
    const done = worker.done.finally(async () => {
      await opened.stop();
      await database.close();
    });
    return { handOver: () => worker.handOver(), done };
  } catch (error) {
    await queue?.stop();
    await database.close();
    throw error;
  }
}
