/**
 * A tournament whose debates go to the shared Postgres queue (`--database`), for `agora worker`s on
 * other hosts, as `batch --database` sends a batch: each debate's run is recorded with its scenario
 * and its job sent in one transaction, then logged as queued in the tournament's own log. This
 * process drives no debate; it reads the runs' progress from the database, copies each finished
 * run into the tournament's folder (its event log and transcripts, as `agora pull` would) and logs
 * its end, and an adaptive schedule plans its next pairing from those ends as `--concurrency`
 * slots free, by the same rule as a tournament run here (rolling-schedule.ts).
 *
 * Sending is idempotent: a run the database already holds (sent just before a kill, not yet logged)
 * is not sent again, only logged. So the same command, or `--resume DIR`, after a kill at any
 * moment, sends no debate twice and repeats none the workers finished.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Scenario } from '../config/scenario.js';
import { mirrorRun } from '../manager/database-mirror.js';
import { indexRun } from '../session/debate-session.js';
import type { DatabaseRunRow, RunDatabase } from '../store/postgres/run-database.js';
import type { WorkQueue } from '../store/postgres/work-queue.js';
import { endEntry, type TournamentRunResult } from './run-tournament.js';
import type { DebateStatus, TournamentLog, TournamentState } from './tournament-log.js';
import type { PlannedMatch } from './tournament-plan.js';
import type { TournamentCounts } from './tournament-progress.js';

export interface QueuedTournamentOptions {
  folder: string;
  state: TournamentState;
  log: TournamentLog;
  database: RunDatabase;
  queue: WorkQueue;
  scenarioFor: (match: PlannedMatch) => Promise<Scenario>;
  /** Debates queued and not yet ended at once, for an adaptive schedule (a round-robin sends all). */
  concurrency: number;
  /** As `runTournament`'s: the next matches once every planned one is queued. */
  nextMatches?: (state: TournamentState, settled: (match: PlannedMatch) => boolean) => PlannedMatch[];
  counts: TournamentCounts;
  onEvent: (message: string) => void;
  stopRequested: () => boolean;
  /** Ends the wait between two looks at the database (a stop). */
  signal: AbortSignal;
  /** How long to wait between two looks at the database when nothing changed. */
  pollMs: number;
}

const now = () => new Date().toISOString();

/** Output tokens a run's calls produced, summed from its event log. */
function outputTokensOf(runDir: string): number {
  const file = path.join(runDir, 'events.jsonl');
  if (!existsSync(file)) return 0;
  let total = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"outputTokens"')) continue;
    const tokens = (JSON.parse(line) as { outputTokens?: unknown }).outputTokens;
    if (typeof tokens === 'number') total += tokens;
  }
  return total;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Records the match's run and sends its job, in one transaction; false when the database had it. */
async function send(options: QueuedTournamentOptions, match: PlannedMatch): Promise<boolean> {
  const scenario = await options.scenarioFor(match);
  const { database, queue } = options;
  return database.transaction(async (client) => {
    const added = await database.addRun(
      {
        runId: match.runId,
        format: scenario.format,
        topic: scenario.topic,
        scenario: JSON.stringify(scenario),
        batchId: options.state.start.id,
      },
      client,
    );
    // Earlier debates first: the queue's priority falls with the debate's place in the plan.
    if (added) await queue.send(match.runId, client, -match.index);
    return added;
  });
}

/** Sends the planned debates not yet queued, in the plan's order, each logged once it is in. */
async function sendPlanned(options: QueuedTournamentOptions): Promise<void> {
  const { state, log } = options;
  for (const match of state.planned) {
    if (state.queued.has(match.runId) || state.ended.has(match.runId)) continue;
    const added = await send(options, match);
    log.append({ type: 'debate-queued', at: now(), index: match.index, runId: match.runId });
    state.queued.add(match.runId);
    if (!added) options.onEvent(`already queued: ${match.runId}`);
  }
}

/** The debate's end, from its run as the database holds it, copied into the tournament's folder. */
async function recordEnd(
  options: QueuedTournamentOptions,
  match: PlannedMatch,
  row: DatabaseRunRow,
  status: DebateStatus,
) {
  const runDir = path.join(options.folder, match.runId);
  await mirrorRun(options.database, row, options.folder, { markLive: false });
  if (existsSync(path.join(runDir, 'events.jsonl')))
    indexRun(runDir, { warning: (text) => options.onEvent(`warning: ${text}`) });
  const entry = endEntry(
    match,
    runDir,
    status,
    status === 'failed' ? `the run failed on its worker (agora show ${match.runId} --database URL)` : null,
    outputTokensOf(runDir),
  );
  options.log.append(entry);
  options.state.ended.set(match.runId, entry);
  return entry;
}

/**
 * Sends the tournament's debates to the queue and follows them until every planned one has ended
 * (or was stopped in the database), or a stop.
 */
export async function runQueuedTournament(options: QueuedTournamentOptions): Promise<TournamentRunResult> {
  const result: TournamentRunResult = { stopped: false, failed: 0, degraded: 0 };
  const { state, counts } = options;
  // Runs stopped in the database (`agora stop`): no worker takes them up again; they end nothing here.
  const stoppedThere = new Set<string>();
  const settled = (match: PlannedMatch) => state.ended.has(match.runId) || stoppedThere.has(match.runId);
  const open = () => state.planned.filter((match) => !settled(match));
  for (;;) {
    if (options.stopRequested()) {
      result.stopped = true;
      break;
    }
    await sendPlanned(options);
    if (options.nextMatches) {
      while (open().length < options.concurrency) {
        const next = options.nextMatches(state, settled);
        if (next.length === 0) break;
        options.log.append({ type: 'matches-planned', at: now(), matches: next });
        state.planned.push(...next);
        await sendPlanned(options);
      }
    }
    const waiting = open();
    if (waiting.length === 0) break;
    const rows = new Map(
      (await options.database.runs(waiting.map((match) => match.runId))).map((row) => [row.runId, row]),
    );
    let changed = false;
    counts.running.clear();
    for (const match of waiting) {
      const row = rows.get(match.runId);
      if (!row) {
        // Logged as queued, yet not in the database (removed there): sent again at the next look.
        state.queued.delete(match.runId);
        changed = true;
        continue;
      }
      if (row.status === 'running' || row.nextSeq > 0) {
        if (!state.started.has(match.runId)) {
          options.log.append({ type: 'debate-start', at: now(), index: match.index, runId: match.runId });
          state.started.add(match.runId);
        }
      }
      if (row.status === 'running') counts.running.set(match.runId, `on ${row.owner ?? 'a worker'}`);
      if (row.status === 'completed' || row.status === 'degraded' || row.status === 'failed') {
        const entry = await recordEnd(options, match, row, row.status);
        changed = true;
        if (row.status === 'failed') {
          counts.failed += 1;
          result.failed += 1;
          options.onEvent(`failed: ${match.runId} — ${entry.error}`);
          continue;
        }
        if (row.status === 'degraded') result.degraded += 1;
        counts.done += 1;
        counts.finishedHere += 1;
        counts.outputTokens += entry.outputTokens;
        options.onEvent(
          `${row.status}: ${match.runId} (${match.first} v ${match.second}, judge ${match.judge})${entry.result ? ` — ${entry.result}` : ''}`,
        );
      } else if (row.status === 'stopped') {
        stoppedThere.add(match.runId);
        result.failed += 1;
        changed = true;
        options.onEvent(
          `stopped in the database: ${match.runId}; \`agora resume ${match.runId} --database URL\` continues it`,
        );
      }
    }
    if (!changed) await wait(options.pollMs, options.signal);
  }
  counts.running.clear();
  return result;
}
