/**
 * Runs kept in the shared database from this process (`run` and `resume` with `--database`): a new
 * run is recorded and claimed under a lease; a run taken up again is claimed, and its folder rebuilt
 * from the committed events, unless a live worker holds it.
 */
import { hostname } from 'node:os';
import type { Scenario } from '../config/scenario.js';
import { ExitCode, RunError, UsageError } from '../core/errors.js';
import { formatNamed } from '../formats/index.js';
import { materialise } from '../manager/claimed-run.js';
import { type LoadedRun, loadRun } from '../manager/debate-manager.js';
import type { RunDatabase, RunLease } from '../store/postgres/run-database.js';
import { WorkQueue } from '../store/postgres/work-queue.js';

/**
 * How long a hold on a run lasts unrenewed, by default: a worker's (`agora worker --lease`) and this
 * process's. It is renewed every third of its length by a timer, during a model call as between
 * steps, so it bounds how long a dead holder's run waits, not how long a call may take.
 */
export const DEFAULT_LEASE_SECONDS = 15;

/** How long this process's hold on a run lasts unrenewed (the same default as a worker's). */
export const SESSION_LEASE_SECONDS = DEFAULT_LEASE_SECONDS;

export interface SharedRun {
  database: RunDatabase;
  owner: string;
  leaseSeconds: number;
  /** A resumed run's lease, already claimed; a new run is recorded and claimed by the session. */
  lease?: RunLease;
}

/** This process, as the holder of a run's lease. */
export function sessionOwner(): string {
  return `${hostname()}-${process.pid}-cli`;
}

/** A new run in the shared database: recorded, then claimed by this process. */
export async function recordAndClaim(
  shared: SharedRun,
  runId: string,
  scenario: Scenario,
): Promise<RunLease> {
  const added = await shared.database.addRun({
    runId,
    format: scenario.format,
    topic: scenario.topic,
    scenario: JSON.stringify(scenario),
  });
  const claim = added ? await shared.database.claim(runId, shared.owner, shared.leaseSeconds) : null;
  if (!claim) {
    throw new UsageError(
      `the shared database already holds a run with the id ${runId}; pick another id with --run-id`,
    );
  }
  return { runId, owner: claim.owner, epoch: claim.epoch };
}

/** What taking up a shared run found: a run to drive here, or why there is nothing to drive. */
export type SharedResume =
  | { kind: 'drive'; loaded: LoadedRun; shared: SharedRun & { lease: RunLease }; simulated: boolean }
  | { kind: 'ended'; runId: string; status: string }
  | { kind: 'queued-again'; runId: string };

/**
 * Takes the run's lease (when no live worker holds it) and rebuilds its folder under `out` from
 * the committed events. A run that never started goes back to the queue, for the workers.
 */
export async function claimSharedRun(
  database: RunDatabase,
  runId: string,
  out: string,
): Promise<SharedResume> {
  const owner = sessionOwner();
  const claim = await database.claim(runId, owner, SESSION_LEASE_SECONDS, { resume: true });
  if (!claim) {
    const [row] = await database.runs([runId]);
    if (!row)
      throw new UsageError(
        `the shared database has no run ${runId}; \`agora runs --database URL\` lists its runs`,
      );
    if (row.status === 'running') {
      throw new RunError(
        `the run ${runId} is being driven by ${row.owner ?? 'a worker'}; stop it first with \`agora stop ${runId} --database URL\``,
        { exitCode: ExitCode.runLocked },
      );
    }
    return { kind: 'ended', runId, status: row.status };
  }
  const lease = { runId, owner, epoch: claim.epoch };
  if (claim.lines.length === 0) {
    // Queued, never started: the workers start it from its queued scenario.
    await database.release(lease);
    const queue = await WorkQueue.start(database.url);
    try {
      await database.transaction(async (client) => {
        await database.requeue(runId, client);
        await queue.send(runId, client);
      });
    } finally {
      await queue.stop();
    }
    return { kind: 'queued-again', runId };
  }
  const runDir = materialise(out, runId, claim.lines);
  return {
    kind: 'drive',
    loaded: loadRun(runDir, formatNamed),
    shared: { database, owner, leaseSeconds: SESSION_LEASE_SECONDS, lease },
    simulated: claim.simulated,
  };
}
