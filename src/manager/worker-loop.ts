/**
 * A worker: takes debates from the shared queue, up to `parallel` at a time, and drives each under
 * a lease against this host's model server; each run's steps stay on this host while it lives (its
 * prompt cache). Every `sweepSeconds` it also sends a job again for any run whose lease ran out (its
 * worker died), so another worker takes it over from the last committed step.
 *
 * Going away: `handOver()` lets the steps in flight finish and gives the runs back, still going, for
 * the other workers to take at once; aborting `signal` cuts the steps in flight (their leases then
 * run out and the runs are taken over like a dead worker's).
 */
import path from 'node:path';
import type { Scenario } from '../config/scenario.js';
import { DatabaseError } from '../core/errors.js';
import type { ModelProvider } from '../llm/provider.js';
import type { ClaimedRun, RunDatabase } from '../store/postgres/run-database.js';
import { TAKEOVER_PRIORITY, type WorkQueue } from '../store/postgres/work-queue.js';
import { driveClaimedRun } from './claimed-run.js';
import { closeRunLogger, createRunLogger } from './logger.js';

export interface WorkerOptions {
  database: RunDatabase;
  queue: WorkQueue;
  workerId: string;
  parallel: number;
  leaseSeconds: number;
  pollSeconds: number;
  sweepSeconds: number;
  workDir: string;
  /** The provider for a run of `scenario`: this host's model server plus the scenario's own. */
  providerFor: (scenario: Scenario) => ModelProvider;
  /** This host's model server, asked whether it answers again after it went away. */
  provider: ModelProvider;
  prepare?: (scenario: Scenario) => Promise<Scenario>;
  signal: AbortSignal;
  /** Ends the worker once no run is queued or being driven anywhere (for scripted batches). */
  exitWhenIdle?: boolean;
  report: (message: string) => void;
}

export interface WorkerSummary {
  /** The runs this worker drove to an end (or lost), each counted once. */
  driven: number;
  /** How many of them ended each way, by the last time this worker drove each. */
  outcomes: Record<string, number>;
}

export function startWorker(options: WorkerOptions) {
  let handingOver = false;
  let serverDown = false;
  const running = new Map<string, Promise<void>>();
  /** Each run's outcome, the last time this worker drove it (a run lost and taken back counts once). */
  const ended = new Map<string, string>();
  let wake: (() => void) | undefined;
  const nap = (seconds: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, seconds * 1000);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const drive = (claim: ClaimedRun) => {
    const logger = createRunLogger(path.join(options.workDir, claim.runId, 'run.log'), { verbose: false });
    const lease = { runId: claim.runId, owner: claim.owner, epoch: claim.epoch };
    options.report(
      claim.lines.length === 0
        ? `started ${claim.runId}`
        : `took over ${claim.runId} at event ${claim.lines.length}`,
    );
    const work = driveClaimedRun({
      database: options.database,
      claim,
      workDir: options.workDir,
      providerFor: options.providerFor,
      logger,
      leaseSeconds: options.leaseSeconds,
      ...(options.prepare ? { prepare: options.prepare } : {}),
      signal: options.signal,
      handOverRequested: () => handingOver,
    })
      .then(async (outcome) => {
        if (outcome.handedOver) {
          await options.database.release(lease);
          if (outcome.error !== undefined) {
            // This host's model server is gone: take nothing more until it answers again.
            serverDown = true;
            options.report(
              `handed over ${claim.runId}: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`,
            );
          } else options.report(`handed over ${claim.runId}`);
          return;
        }
        // A run whose last events the database did not take is not this worker's to report on,
        // even when they ended it here.
        const status =
          outcome.commitRefused || (outcome.error !== undefined && outcome.transcript.status === 'running')
            ? 'lost'
            : outcome.transcript.status;
        ended.set(claim.runId, status);
        const why = outcome.error instanceof Error ? ` (${outcome.error.message})` : '';
        options.report(`${status}: ${claim.runId}${why}`);
      })
      .catch(async (error: unknown) => {
        // The run could not start (its scenario could not be settled): it is failed, with nothing in it.
        await options.database.markFailed(lease).catch(() => undefined);
        ended.set(claim.runId, 'failed');
        options.report(`failed: ${claim.runId} (${error instanceof Error ? error.message : String(error)})`);
      })
      .finally(() => {
        closeRunLogger(logger);
        running.delete(claim.runId);
        wake?.();
      });
    running.set(claim.runId, work);
  };

  /** Whether this host's model server answers again, after it went away mid-run. */
  const serverBack = async (): Promise<boolean> => {
    try {
      await options.provider.version();
      options.report('the model server answers again; taking debates');
      serverDown = false;
      return true;
    } catch {
      return false;
    }
  };

  /** One pass: the sweep when due, claims for the free slots. Returns how many runs it started. */
  let lastSweep = 0;
  const pass = async (): Promise<number> => {
    if (Date.now() - lastSweep >= options.sweepSeconds * 1000) {
      lastSweep = Date.now();
      for (const runId of await options.database.orphans())
        await options.queue.send(runId, undefined, TAKEOVER_PRIORITY);
    }
    const free = options.parallel - running.size;
    let took = 0;
    if (free > 0 && (!serverDown || (await serverBack()))) {
      for (const job of await options.queue.take(free)) {
        const claim = await options.database.claim(job.runId, options.workerId, options.leaseSeconds);
        if (claim && !handingOver) {
          took += 1;
          drive(claim);
        } else if (claim) await options.database.release(claim);
        // The lease, not the job, says who drives the run: a job left undone expires harmlessly.
        await options.queue.done(job.id);
      }
    }
    return took;
  };

  const loop = async () => {
    let databaseDown: string | undefined;
    while (!handingOver && !options.signal.aborted) {
      let took = 0;
      try {
        took = await pass();
        if (
          options.exitWhenIdle &&
          running.size === 0 &&
          took === 0 &&
          (await options.database.pending()) === 0
        )
          break;
        if (databaseDown !== undefined) options.report('the database answers again');
        databaseDown = undefined;
      } catch (error) {
        if (!(error instanceof DatabaseError)) throw error;
        // The database (or this process's session with it) failed: the runs in flight find out at
        // their next commit; the loop tries again. A job taken and not claimed comes back to the
        // queue when it expires.
        if (databaseDown !== error.message) options.report(`${error.message}; trying again`);
        databaseDown = error.message;
        await nap(Math.max(1, options.pollSeconds));
        continue;
      }
      if (took === 0) await nap(options.pollSeconds);
    }
    await Promise.all(running.values());
    const summary: WorkerSummary = { driven: ended.size, outcomes: {} };
    for (const status of ended.values()) summary.outcomes[status] = (summary.outcomes[status] ?? 0) + 1;
    return summary;
  };

  const done = loop().catch(async (error) => {
    handingOver = true;
    await Promise.allSettled(running.values());
    throw error;
  });
  return {
    done,
    running: () => [...running.keys()],
    /** Finish the steps in flight, hand the runs back, take no more. */
    handOver() {
      handingOver = true;
      wake?.();
    },
  };
}
