/** The knockout run's state: a pure fold over its events. */

import { addClaims, type LedgerClaim } from '../../agents/claims-ledger.js';
import type { KnockoutScenario } from '../../config/scenario.js';
import type {
  ClaimsEvent,
  CommentaryEvent,
  RoundEndEvent,
  RunEndEvent,
  RunEvent,
  RunStatus,
  Stored,
  SummaryEvent,
  TurnEndEvent,
  VoteCastEvent,
} from '../../core/events.js';
import { type FailureStreaks, NO_FAILURES, recordStep } from '../../core/failure-streaks.js';

export interface RoundRecord {
  number: number;
  debater: string;
  statements: Array<Stored<TurnEndEvent>>;
  votes: Array<Stored<VoteCastEvent>>;
  end: Stored<RoundEndEvent> | null;
}

export interface KnockoutState {
  runId: string;
  scenario: KnockoutScenario;
  engineVersion: string;
  startedAt: string;
  updatedAt: string;
  rounds: RoundRecord[];
  currentDebater: string;
  /** Y agents that have debated, in order (the current one included). */
  debated: string[];
  summaries: Array<Stored<SummaryEvent>>;
  /** Each statement's claims extraction, in order. */
  claims: Array<Stored<ClaimsEvent>>;
  /** The claims ledger: every claim so far, with what answers it. */
  ledger: LedgerClaim[];
  /** The commentator's words after each round (for the audience only). */
  commentary: Array<Stored<CommentaryEvent>>;
  end: Stored<RunEndEvent> | null;
  /** Every model call's prompt size, for calibrating token estimates. */
  promptSamples: Array<{ round: number; model: string; promptChars: number; promptTokens: number }>;
  outputTokens: number;
  /** Real time the run has been active, summed over its segments (the start and each resume). */
  activeMs: number;
  segmentStartedAt: string;
  /**
   * Active time (as in `activeMs`) at which the round in progress began: the previous round's end,
   * or the start of the first step (after the models were loaded) for round 1; null before it.
   * A round's clock covers everything between the two: statements, claims, the summary folded
   * before it, the commentary on the round before, judging and the engine's own time.
   */
  roundClockMs: number | null;
  /** Failed steps in a row per agent and per model: degraded turns, judges whose model could not be called, failed summaries. */
  failures: FailureStreaks;
  lastEvent: RunEvent['type'];
  /** A summary failed and no step has completed since: go ahead with the full text for now. */
  summaryFailed: boolean;
}

export function statusOf(state: KnockoutState): RunStatus {
  return state.end?.status ?? 'running';
}

export function yAgentNames(scenario: KnockoutScenario): string[] {
  return scenario.agents.filter((agent) => agent.position === 'Y').map((agent) => agent.name);
}

export function xAgentOf(scenario: KnockoutScenario) {
  const agent = scenario.agents.find((candidate) => candidate.position === 'X');
  if (!agent) throw new Error('scenario has no Position X agent');
  return agent;
}

function withRound(
  state: KnockoutState,
  number: number,
  change: (round: RoundRecord) => RoundRecord,
): RoundRecord[] {
  const rounds = [...state.rounds];
  const index = rounds.findIndex((round) => round.number === number);
  if (index === -1) {
    rounds.push(change({ number, debater: state.currentDebater, statements: [], votes: [], end: null }));
  } else {
    rounds[index] = change(rounds[index] as RoundRecord);
  }
  return rounds;
}

/** Applies one event. The first event must be `run-start`. */
export function foldKnockout(state: KnockoutState | undefined, event: RunEvent): KnockoutState {
  if (event.type === 'run-start') {
    const scenario = event.scenario as KnockoutScenario;
    const first = yAgentNames(scenario)[0] ?? '';
    return {
      runId: event.runId,
      scenario,
      engineVersion: event.engineVersion,
      startedAt: event.at,
      updatedAt: event.at,
      rounds: [],
      currentDebater: first,
      debated: [first],
      summaries: [],
      claims: [],
      ledger: [],
      commentary: [],
      end: null,
      promptSamples: [],
      outputTokens: 0,
      activeMs: 0,
      segmentStartedAt: event.at,
      roundClockMs: null,
      failures: NO_FAILURES,
      lastEvent: 'run-start',
      summaryFailed: false,
    };
  }
  if (!state) throw new Error(`event ${event.seq} (${event.type}) comes before run-start`);
  const next: KnockoutState = { ...state, updatedAt: event.at, lastEvent: event.type };
  if (event.type === 'run-resume') {
    // The time between the last event and the resume was downtime, not runtime.
    // A resume is a fresh start for the failure count: the user has presumably fixed the server.
    // The failed calls of the round in flight are planned again.
    return {
      ...next,
      rounds: withoutFailuresInOpenRound(state.rounds),
      end: null,
      segmentStartedAt: event.at,
      failures: NO_FAILURES,
    };
  }
  next.activeMs = state.activeMs + Math.max(0, Date.parse(event.at) - Date.parse(state.updatedAt));
  // Round 1's clock starts with the first step, not with the run (the models load in between).
  if (state.roundClockMs === null && 'realMs' in event && typeof event.realMs === 'number') {
    next.roundClockMs = Math.max(state.activeMs, next.activeMs - event.realMs);
  }
  switch (event.type) {
    case 'turn-end':
      next.rounds = withRound(state, event.round, (round) => ({
        ...round,
        statements: [...round.statements, event],
      }));
      if (!event.degraded) next.promptSamples = [...state.promptSamples, sample(event, event.round)];
      next.outputTokens = state.outputTokens + event.outputTokens;
      next.failures = recordStep(state.failures, event.agent, event.model, event.degraded === true);
      next.summaryFailed = false;
      return next;
    case 'vote-cast':
      next.rounds = withRound(state, event.round, (round) => ({ ...round, votes: [...round.votes, event] }));
      if (event.promptTokens > 0) next.promptSamples = [...state.promptSamples, sample(event, event.round)];
      next.outputTokens = state.outputTokens + event.outputTokens;
      next.failures = recordStep(
        state.failures,
        event.judge,
        event.model,
        event.callFailed === true,
        state.rounds.some(
          (round) =>
            round.number === event.round &&
            round.votes.some((vote) => vote.callFailed && vote.model === event.model),
        ),
      );
      next.summaryFailed = false;
      return next;
    case 'round-end':
      next.rounds = withRound(state, event.round, (round) => ({ ...round, end: event }));
      next.roundClockMs = next.activeMs;
      if (event.rotation) {
        next.currentDebater = event.rotation.to;
        next.debated = [...state.debated, event.rotation.to];
      }
      return next;
    case 'summary':
      next.summaries = [...state.summaries, event];
      next.promptSamples = [...state.promptSamples, sample(event, event.throughRound)];
      next.outputTokens = state.outputTokens + event.outputTokens;
      next.failures = recordStep(state.failures, SUMMARISER, event.model, false);
      next.summaryFailed = false;
      return next;
    case 'claims':
      next.claims = [...state.claims, event];
      next.ledger = addClaims(state.ledger, event);
      if (event.promptTokens > 0) next.promptSamples = [...state.promptSamples, sample(event, event.round)];
      next.outputTokens = state.outputTokens + event.outputTokens;
      next.summaryFailed = false;
      return next;
    case 'commentary':
      next.commentary = [...state.commentary, event];
      next.outputTokens = state.outputTokens + event.outputTokens;
      return next;
    case 'step-failed':
      next.failures = recordStep(
        state.failures,
        SUMMARISER,
        event.model ?? summariserModel(state.scenario),
        true,
      );
      next.summaryFailed = true;
      return next;
    case 'run-end':
      next.end = event;
      return next;
    default:
      return next;
  }
}

/**
 * The running summary as it stands: its parts in order. A part that starts at round 1 replaces
 * every earlier part (it was written over them); a later part follows on from the one before it.
 */
export function summaryChain(summaries: ReadonlyArray<Stored<SummaryEvent>>): Array<Stored<SummaryEvent>> {
  let start = 0;
  summaries.forEach((summary, index) => {
    if ((summary.fromRound ?? 1) === 1) start = index;
  });
  return summaries.slice(start);
}

/** The last round the running summary covers (0 before the first summary). */
export function summarisedThrough(state: KnockoutState): number {
  return state.summaries.at(-1)?.throughRound ?? 0;
}

/** The name failures of the running summary are counted under. */
export const SUMMARISER = 'the summariser';

/**
 * The model that writes the running summary: the configured one, else the model of whoever speaks
 * first in the next round, which is about to be loaded anyway (on a machine that holds one model
 * at a time, a summary on any other model would cost two swaps).
 */
export function summariserModel(scenario: KnockoutScenario, nextDebater?: string): string {
  if (scenario.context.summariser_model) return scenario.context.summariser_model;
  const first =
    scenario.debate.starting_position === 'X'
      ? xAgentOf(scenario)
      : scenario.agents.find((agent) => agent.name === nextDebater);
  return (first ?? xAgentOf(scenario)).model;
}

/** The round in flight without its failed statements and votes, so a resume plans them again. */
function withoutFailuresInOpenRound(rounds: RoundRecord[]): RoundRecord[] {
  const open = rounds.at(-1);
  if (!open || open.end) return rounds;
  return [
    ...rounds.slice(0, -1),
    {
      ...open,
      statements: open.statements.filter((statement) => !statement.degraded),
      votes: open.votes.filter((vote) => !vote.callFailed),
    },
  ];
}

function sample(event: TurnEndEvent | VoteCastEvent | SummaryEvent | ClaimsEvent, round: number) {
  return {
    round,
    model: event.model ?? '',
    promptChars: event.promptChars,
    promptTokens: event.promptTokens,
  };
}

export function rotationsOf(
  state: KnockoutState,
): Array<{ afterRound: number; from: string; to: string; rotateVotes: number }> {
  return state.rounds.flatMap((round) =>
    round.end?.rotation
      ? [{ afterRound: round.number, ...round.end.rotation, rotateVotes: round.end.tally.rotateVotes }]
      : [],
  );
}

/** The failed steps that stand in the record: emergency statements, abstaining judges, void votes. */
export function knockoutFailures(state: KnockoutState): string[] {
  return state.rounds.flatMap((round) => [
    ...round.statements
      .filter((statement) => statement.degraded)
      .map(
        (statement) =>
          `round ${round.number}: ${statement.agent}'s statement is an emergency response (${statement.failureReason ?? 'the model failed'})`,
      ),
    ...round.votes
      .filter((vote) => vote.abstained)
      .map(
        (vote) =>
          `round ${round.number}: ${vote.judge} abstained (${vote.abstainReason ?? 'no usable answer'})`,
      ),
    ...(round.end?.outcome === 'void' ? [`round ${round.number}: the vote is void`] : []),
  ]);
}
