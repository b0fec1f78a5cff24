/**
 * Drives a run held under a lease in the shared database. The database is the record; the run's
 * local folder (`<work dir>/<run id>`) is this host's working copy, rebuilt from the committed
 * events at every claim, so a run taken over from another host, or from this host's own earlier
 * life, goes on from the last committed step and nothing uncommitted is kept.
 *
 * While the run is driven, the lease is renewed every third of its length; a renewal that finds the
 * lease gone (another worker took the run over after this one missed it) aborts the step in
 * flight, and the commit of each step is refused anyway, so a stale worker never adds a turn.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Scenario } from '../config/scenario.js';
import type { RunEvent } from '../core/events.js';
import type { LiveNotice } from '../core/live.js';
import { formatNamed } from '../formats/index.js';
import { isProviderError } from '../llm/errors.js';
import type { ModelProvider } from '../llm/provider.js';
import type { ClaimedRun, RunDatabase, RunLease } from '../store/postgres/run-database.js';
import { driveDebate, loadRun, type RunOutcome, runPaths } from './debate-manager.js';

export interface ClaimedRunOptions {
  database: RunDatabase;
  claim: ClaimedRun;
  /** Where this host keeps its working copies of runs. */
  workDir: string;
  /** The provider for a run of `scenario` (the host's Ollama plus the scenario's own servers). */
  providerFor: (scenario: Scenario) => ModelProvider;
  logger: Logger;
  leaseSeconds: number;
  /** Settles a new run's scenario before its first event (a formal debate's models). */
  prepare?: (scenario: Scenario) => Promise<Scenario>;
  /** Aborts the step in flight (the worker is going away at once). */
  signal?: AbortSignal;
  /** True hands the run back after the step in flight, still going, for another worker to take. */
  handOverRequested?: () => boolean;
  onEvent?: (event: RunEvent) => void;
  onNotice?: (notice: LiveNotice) => void;
}

/** Whether `error` (or what it wraps) says the model server cannot be reached. */
export function serverGone(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth += 1) {
    if (isProviderError(cause) && (cause.kind === 'unreachable' || cause.kind === 'busy')) return true;
    cause = cause.cause;
  }
  return false;
}

/** Rebuilds the run's working copy from the committed events. */
export function materialise(workDir: string, runId: string, lines: string[]): string {
  const runDir = path.join(workDir, runId);
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  writeFileSync(path.join(runDir, 'events.jsonl'), lines.length ? `${lines.join('\n')}\n` : '');
  return runDir;
}

/**
 * What holding a run's lease takes while the run is driven: a renewal every third of the lease, an
 * abort of the step in flight when a renewal finds the lease gone, the commit of each step under
 * the lease, and the stop requests the database carries.
 */
export function leaseSession(
  database: RunDatabase,
  lease: RunLease,
  leaseSeconds: number,
  logger: Logger,
  signal?: AbortSignal,
) {
  const abort = new AbortController();
  const onAbort = () => abort.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let stopAsked = false;
  let lost = false;
  let ended = false;
  const renew = async () => {
    try {
      const renewed = await database.renew(lease, leaseSeconds);
      // A renewal still in flight when the segment ended has nothing left to guard (its log is closed).
      if (ended) return;
      if (renewed === null) {
        lost = true;
        logger.warn({ runId: lease.runId }, 'lease lost: another worker holds the run');
        abort.abort(new Error('the lease on the run was lost'));
      } else if (renewed.stopRequested) stopAsked = true;
    } catch (error) {
      // The database is out of reach for now: the next commit decides whether the run goes on.
      if (!ended) logger.warn({ err: error }, 'lease renewal failed');
    }
  };
  const heartbeat = setInterval(() => void renew(), Math.max(200, (leaseSeconds * 1000) / 3));
  return {
    signal: abort.signal,
    stopAsked: () => stopAsked,
    commit: async (events: RunEvent[]) => {
      if (lost) throw new Error('the lease on the run was lost');
      const result = await database.commit(lease, events, leaseSeconds);
      if (result.stopRequested) stopAsked = true;
    },
    close() {
      ended = true;
      clearInterval(heartbeat);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

export async function driveClaimedRun(options: ClaimedRunOptions): Promise<RunOutcome> {
  const { database, claim, leaseSeconds, logger } = options;
  const lease = { runId: claim.runId, owner: claim.owner, epoch: claim.epoch };
  const runDir = materialise(options.workDir, claim.runId, claim.lines);
  const paths = runPaths(runDir);
  const session = leaseSession(database, lease, leaseSeconds, logger, options.signal);
  const common = {
    paths,
    logger,
    signal: session.signal,
    simulated: claim.simulated,
    stopRequested: session.stopAsked,
    commit: session.commit,
    ...(options.handOverRequested ? { handOverRequested: options.handOverRequested } : {}),
    // This host's model server went away: the run is not over, another worker goes on with it.
    handOverOnFailure: serverGone,
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
  };
  try {
    if (claim.lines.length === 0) {
      const format = formatNamed(claim.format);
      if (!format) throw new Error(`this version of Agora cannot run "${claim.format}" debates`);
      const given = JSON.parse(claim.scenario) as Scenario;
      const scenario = options.prepare ? await options.prepare(given) : given;
      return await driveDebate({
        ...common,
        provider: options.providerFor(scenario),
        format,
        start: { runId: claim.runId, scenario },
      });
    }
    const loaded = loadRun(runDir, formatNamed);
    return await driveDebate({
      ...common,
      provider: options.providerFor(loaded.scenario),
      format: loaded.format,
      existing: loaded.events,
    });
  } finally {
    session.close();
  }
}
