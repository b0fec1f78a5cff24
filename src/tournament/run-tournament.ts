/**
 * Runs a tournament's debates, a few at a time, through the session layer as a batch does: their
 * model calls share the hosts' gate (`--parallel` calls at once per host), each debate at most its
 * share. Every debate's start and end go to the tournament's log as they happen. A debate already
 * finished is never run again; one a kill interrupted resumes from its own log; a failed one is
 * recorded and retried when the tournament runs again. Ctrl-C stops after the steps in flight.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TournamentMatch } from '../analytics/tournament-match.js';
import type { Scenario } from '../config/scenario.js';
import { outcomeLine } from '../formats/outcome-line.js';
import { callShare, withCallShare } from '../llm/call-share.js';
import type { LimitedProvider } from '../llm/limited-provider.js';
import { indexRun, runSession } from '../session/debate-session.js';
import { claimNamedRunFolder } from '../session/run-folder-claim.js';
import type { KnockoutVerdict } from './knockout-verdict.js';
import { tournamentMatch } from './match-record.js';
import type { DebateStatus, TournamentLog, TournamentState } from './tournament-log.js';
import type { PlannedMatch } from './tournament-plan.js';
import type { TournamentCounts } from './tournament-progress.js';

export interface RunTournamentOptions {
  folder: string;
  state: TournamentState;
  log: TournamentLog;
  /** The hosts behind their gate, checked for every model of the tournament. */
  pool: LimitedProvider;
  env: Record<string, string | undefined>;
  requestTimeoutMs?: number;
  concurrency: number;
  scenarioFor: (match: PlannedMatch) => Promise<Scenario>;
  /**
   * The next matches to play once those planned have all started (an adaptive schedule), asked
   * again each time a slot frees; `settled` says which planned debates have ended, here or before.
   * None while the choice waits for results, and none at the end. Absent for a round-robin, which
   * is planned whole at the start.
   */
  nextMatches?: (state: TournamentState, settled: (match: PlannedMatch) => boolean) => PlannedMatch[];
  /**
   * The tournament judge's verdict on a finished debate whose own judges are its debaters (a
   * knockout: knockout-verdict.ts); absent for formats whose judge is the match's already.
   */
  verdictFor?: (match: PlannedMatch, runDir: string) => Promise<KnockoutVerdict>;
  counts: TournamentCounts;
  onEvent: (message: string) => void;
  stopRequested: () => boolean;
  signal: AbortSignal;
}

/** What this process's part of the tournament came to. */
export interface TournamentRunResult {
  stopped: boolean;
  failed: number;
  degraded: number;
}

const now = () => new Date().toISOString();

function readTranscript(runDir: string): unknown {
  const file = path.join(runDir, 'transcript.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

/** The end entry of a finished debate, read from its run folder. */
export function endEntry(
  match: PlannedMatch,
  runDir: string,
  status: DebateStatus,
  error: string | null,
  outputTokens: number,
  verdict: KnockoutVerdict | null = null,
) {
  const transcript = readTranscript(runDir) as Record<string, unknown> | null;
  const record: TournamentMatch | null = transcript
    ? tournamentMatch(transcript, match.motionId, verdict)
    : null;
  const result =
    transcript && typeof transcript.format === 'string'
      ? outcomeLine(transcript.format, { ...transcript, failedSteps: Number(transcript.failedSteps ?? 0) })
      : null;
  return {
    type: 'debate-end' as const,
    at: now(),
    index: match.index,
    runId: match.runId,
    status,
    result,
    error,
    match: record,
    outputTokens,
  };
}

type MatchOutcome = 'finished' | 'degraded' | 'stopped' | 'failed';

/**
 * A debate that ended but got no verdict: stopped when a stop cut the judge short, else failed. No
 * end is logged, so the next run reads the ended debate back and asks the judge again.
 */
function verdictFailed(match: PlannedMatch, options: RunTournamentOptions, error: unknown): MatchOutcome {
  if (options.signal.aborted || options.stopRequested()) return 'stopped';
  options.counts.failed += 1;
  options.onEvent(
    `failed: ${match.runId} — no verdict: ${error instanceof Error ? error.message : String(error)}`,
  );
  return 'failed';
}

async function runMatch(
  match: PlannedMatch,
  options: RunTournamentOptions,
  pool: LimitedProvider | ReturnType<typeof withCallShare>,
): Promise<MatchOutcome> {
  const { folder, log, counts } = options;
  const runDir = path.join(folder, match.runId);
  const step = (text: string) => counts.running.set(match.runId, text);
  let claim: ReturnType<typeof claimNamedRunFolder>;
  try {
    claim = claimNamedRunFolder(runDir);
  } catch (error) {
    options.onEvent(`failed: ${match.runId} — ${(error as Error).message}`);
    return 'failed';
  }
  if (claim.kind === 'ended') {
    // Ended before the tournament could log it (a kill between the two): logged now, not run again.
    indexRun(runDir, { warning: (text) => options.onEvent(`warning: ${text}`) });
    const status = claim.progress.status === 'degraded' ? 'degraded' : 'completed';
    let verdict: KnockoutVerdict | null;
    try {
      verdict = options.verdictFor ? await options.verdictFor(match, runDir) : null;
    } catch (error) {
      return verdictFailed(match, options, error);
    }
    const entry = endEntry(match, runDir, status, null, 0, verdict);
    log.append(entry);
    options.state.ended.set(match.runId, entry);
    counts.done += 1;
    options.onEvent(`already finished: ${match.runId}`);
    return status === 'degraded' ? 'degraded' : 'finished';
  }
  let outputTokens = 0;
  try {
    step('starting');
    log.append({ type: 'debate-start', at: now(), index: match.index, runId: match.runId });
    options.state.started.add(match.runId);
    const scenario =
      claim.kind === 'resume' ? claim.resume.loaded.scenario : await options.scenarioFor(match);
    const outcome = await runSession(
      {
        scenario,
        ...(claim.kind === 'resume' ? { resume: claim.resume } : {}),
        servers: {
          host: options.pool.host,
          env: options.env,
          ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
          pool,
        },
        store: { out: folder, runId: match.runId, lockHeld: true, followLive: false },
        signal: options.signal,
        stopRequested: options.stopRequested,
        ...(options.state.start.simulated ? { simulated: true } : {}),
      },
      {
        warning: (text) => options.onEvent(`warning: ${match.runId}: ${text}`),
        notice: (notice) => {
          if (notice.type === 'turn-start') step(`${notice.heading}: ${notice.agent} speaking`);
          else if (notice.type === 'judging-start') step(`round ${notice.round}: judging`);
        },
        event: (event) => {
          const tokens = (event as { outputTokens?: unknown }).outputTokens;
          if (typeof tokens === 'number') {
            outputTokens += tokens;
            counts.outputTokens += tokens;
          }
        },
      },
    );
    const { status, error, stopReason } = outcome.transcript;
    if (status === 'stopped') return 'stopped';
    const ended: DebateStatus = status === 'completed' || status === 'degraded' ? status : 'failed';
    let verdict: KnockoutVerdict | null = null;
    if (ended !== 'failed' && options.verdictFor) {
      try {
        step('the tournament judge reading');
        verdict = await options.verdictFor(match, runDir);
      } catch (failure) {
        return verdictFailed(match, options, failure);
      }
    }
    const entry = endEntry(
      match,
      runDir,
      ended,
      error ?? (ended === 'failed' ? stopReason : null),
      outputTokens,
      verdict,
    );
    log.append(entry);
    if (ended === 'failed') {
      counts.failed += 1;
      options.onEvent(`failed: ${match.runId} — ${entry.error ?? 'the debate failed'}`);
      return 'failed';
    }
    options.state.ended.set(match.runId, entry);
    counts.done += 1;
    counts.finishedHere += 1;
    options.onEvent(
      `${ended}: ${match.runId} (${match.first} v ${match.second}, judge ${match.judge})${entry.result ? ` — ${entry.result}` : ''}`,
    );
    return ended === 'degraded' ? 'degraded' : 'finished';
  } catch (error) {
    counts.failed += 1;
    options.onEvent(`failed: ${match.runId} — ${error instanceof Error ? error.message : String(error)}`);
    return 'failed';
  } finally {
    counts.running.delete(match.runId);
    claim.release();
  }
}

/**
 * Plays the planned matches not yet finished, `concurrency` at a time, and (adaptive) plans the next
 * ones as slots free, until none is left or a stop. A run of failed debates as long as the slots (at
 * least two) stops the starting of more: the rest would fail the same way, and waits for the next run.
 */
export async function runTournament(options: RunTournamentOptions): Promise<TournamentRunResult> {
  const result: TournamentRunResult = { stopped: false, failed: 0, degraded: 0 };
  const { state } = options;
  const attempted = new Set<string>();
  const settledHere = new Set<string>();
  const settled = (match: PlannedMatch) => state.ended.has(match.runId) || settledHere.has(match.runId);
  const running = new Map<string, Promise<void>>();
  const failureRun = Math.max(2, options.concurrency);
  let failedInARow = 0;
  let stopped = false;
  let failure: { error: unknown } | undefined;
  const nextToStart = () =>
    state.planned.find((match) => !state.ended.has(match.runId) && !attempted.has(match.runId));
  for (;;) {
    while (running.size < options.concurrency && !stopped && failedInARow < failureRun) {
      if (options.stopRequested()) {
        stopped = true;
        break;
      }
      let match = nextToStart();
      if (!match && options.nextMatches) {
        const next = options.nextMatches(state, settled);
        if (next.length > 0) {
          options.log.append({ type: 'matches-planned', at: now(), matches: next });
          state.planned.push(...next);
          match = nextToStart();
        }
      }
      if (!match) break;
      const started = match;
      attempted.add(started.runId);
      // Each debate sends at most its share of the calls the hosts take at once (call-share.ts).
      const waiting = state.planned.filter(
        (each) => !state.ended.has(each.runId) && !attempted.has(each.runId),
      ).length;
      const share = callShare(
        options.pool.capacity,
        Math.min(options.concurrency, running.size + 1 + waiting),
      );
      const pool =
        share === undefined || share >= options.pool.capacity
          ? options.pool
          : withCallShare(options.pool, share);
      running.set(
        started.runId,
        runMatch(started, options, pool).then(
          (outcome) => {
            running.delete(started.runId);
            if (outcome === 'stopped') {
              stopped = true;
              return;
            }
            settledHere.add(started.runId);
            if (outcome === 'failed') {
              result.failed += 1;
              failedInARow += 1;
            } else failedInARow = 0;
            if (outcome === 'degraded') result.degraded += 1;
          },
          (error: unknown) => {
            // The tournament's own log could not be written: nothing more starts, the rest finish.
            running.delete(started.runId);
            failure ??= { error };
            stopped = true;
          },
        ),
      );
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  if (failure) throw failure.error;
  result.stopped = stopped || options.stopRequested();
  return result;
}
