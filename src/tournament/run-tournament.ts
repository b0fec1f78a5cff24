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
import { mapConcurrent } from '../core/concurrency.js';
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
   * The next matches to play after those planned are done (an adaptive schedule); none ends the
   * tournament. Absent for a round-robin, which is planned whole at the start.
   */
  nextMatches?: (state: TournamentState) => PlannedMatch[];
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
function endEntry(
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

/** Plays the planned matches not yet finished, then (adaptive) the next ones, until none is left or a stop. */
export async function runTournament(options: RunTournamentOptions): Promise<TournamentRunResult> {
  const result: TournamentRunResult = { stopped: false, failed: 0, degraded: 0 };
  const { state } = options;
  const attempted = new Set<string>();
  for (;;) {
    const pending = state.planned.filter(
      (match) => !state.ended.has(match.runId) && !attempted.has(match.runId),
    );
    if (pending.length === 0) {
      const next = options.nextMatches && !options.stopRequested() ? options.nextMatches(state) : [];
      if (next.length === 0) break;
      options.log.append({ type: 'matches-planned', at: now(), matches: next });
      state.planned.push(...next);
      continue;
    }
    // Each debate sends at most its share of the calls the hosts take at once (call-share.ts).
    const share = callShare(options.pool.capacity, Math.min(options.concurrency, pending.length));
    const pool =
      share === undefined || share >= options.pool.capacity
        ? options.pool
        : withCallShare(options.pool, share);
    const outcomes = await mapConcurrent(pending, options.concurrency, async (match) => {
      attempted.add(match.runId);
      if (options.stopRequested()) return 'stopped' as const;
      return runMatch(match, options, pool);
    });
    result.failed += outcomes.filter((outcome) => outcome === 'failed').length;
    result.degraded += outcomes.filter((outcome) => outcome === 'degraded').length;
    if (outcomes.includes('stopped') || options.stopRequested()) {
      result.stopped = true;
      break;
    }
    // A batch that only failed would fail the same way again: the rest waits for the next run.
    if (outcomes.every((outcome) => outcome === 'failed')) break;
  }
  return result;
}
