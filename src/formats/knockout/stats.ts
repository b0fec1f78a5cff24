/** Statistics for the final tables and transcript.json, computed from the state alone. */

import { PERSON_MODEL } from '../../core/person-seat.js';
import type { KnockoutState } from './state.js';
import { LEDGER_SUMMARY_MODEL } from './summary-prompts.js';
import { roundLimitMs } from './thresholds.js';

export interface AgentStats {
  name: string;
  position: 'X' | 'Y';
  model: string;
  roundsDebated: number;
  /** Mean weighted score the judges gave this agent (Position Y only). */
  meanScore: number | null;
  votesAgainst: number;
  knockedOut: boolean;
  simulatedSeconds: number;
  tokensIn: number;
  tokensOut: number;
  realMs: number;
  /** Statements cut by their token limit, and that share of the agent's statements. */
  /** Tokens spent thinking (not speech). */
  thinkingTokens: number;
  truncatedTurns: number;
  truncationRate: number | null;
  /** As a judge: votes that contradicted the judge's own scores. */
  inconsistentVotes: number;
}

export interface KnockoutStats {
  agents: AgentStats[];
  simulatedSecondsPerSide: { X: number; Y: number };
  rounds: number;
  rotations: number;
  modelCalls: number;
  promptTokens: number;
  outputTokens: number;
  abstentions: number;
  degradedTurns: number;
  fallbackCalls: number;
  /** Rounds that took longer than the round time limit. */
  slowRounds: number[];
  /** The round time limit those rounds went over, in seconds. */
  roundTimeLimitSeconds: number;
  /**
   * The claims ledger, when a model keeps it: claims recorded, claims dropped because their
   * statement does not say them, and extractions that fell back to key sentences (no usable answer).
   */
  claims: { recorded: number; nearMatched: number; notInStatement: number; fellBack: number } | null;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

export function knockoutStats(state: KnockoutState): KnockoutStats {
  const agents: AgentStats[] = state.scenario.agents.map((agent) => {
    const statements = state.rounds.flatMap((round) =>
      round.statements.filter((item) => item.agent === agent.name),
    );
    const votes = state.rounds.flatMap((round) => round.votes.filter((vote) => vote.judge === agent.name));
    const received = state.rounds
      .filter((round) => round.debater === agent.name)
      .flatMap((round) => round.votes.map((vote) => vote.evaluation).filter((item) => item !== null));
    const scores = received.map((evaluation) => evaluation.total_score);
    return {
      name: agent.name,
      position: agent.position,
      model: agent.human ? PERSON_MODEL : agent.model,
      roundsDebated: new Set(statements.map((statement) => statement.round)).size,
      meanScore:
        scores.length === 0 ? null : round2(scores.reduce((sum, score) => sum + score, 0) / scores.length),
      votesAgainst: received.filter((evaluation) => !evaluation.continue_vote).length,
      knockedOut: state.rounds.some(
        (round) =>
          round.debater === agent.name &&
          (round.end?.outcome === 'rotation' || round.end?.outcome === 'debate-over'),
      ),
      simulatedSeconds: round2(statements.reduce((sum, statement) => sum + statement.simulatedSeconds, 0)),
      tokensIn: [...statements, ...votes].reduce((sum, item) => sum + item.promptTokens, 0),
      tokensOut: [...statements, ...votes].reduce((sum, item) => sum + item.outputTokens, 0),
      realMs: [...statements, ...votes].reduce((sum, item) => sum + item.realMs, 0),
      thinkingTokens: statements.reduce((sum, statement) => sum + (statement.thinkingTokens ?? 0), 0),
      truncatedTurns: statements.filter((statement) => statement.truncated).length,
      truncationRate:
        statements.length === 0
          ? null
          : round2(statements.filter((statement) => statement.truncated).length / statements.length),
      inconsistentVotes: votes.filter((vote) => vote.evaluation?.inconsistent).length,
    };
  });
  const statements = state.rounds.flatMap((round) => round.statements);
  const votes = state.rounds.flatMap((round) => round.votes);
  const side = (position: 'X' | 'Y') =>
    round2(
      statements
        .filter((item) => item.position === position)
        .reduce((sum, item) => sum + item.simulatedSeconds, 0),
    );
  // Claims extractions and commentary are model calls too, and count in every total.
  const extraCalls = [
    ...state.claims.filter((claims) => claims.source !== 'heuristic' || claims.attempts > 0),
    ...state.commentary,
  ];
  const calls = [...statements, ...votes, ...state.summaries, ...extraCalls];
  return {
    agents,
    simulatedSecondsPerSide: { X: side('X'), Y: side('Y') },
    rounds: state.rounds.filter((round) => round.end).length,
    rotations: state.rounds.filter((round) => round.end?.rotation).length,
    // Every call counts, retries included.
    modelCalls:
      statements.reduce((sum, statement) => sum + (statement.attempts ?? 1), 0) +
      votes.reduce((sum, vote) => sum + vote.attempts, 0) +
      state.summaries.filter((summary) => summary.model !== LEDGER_SUMMARY_MODEL).length +
      extraCalls.reduce((sum, call) => sum + call.attempts, 0),
    promptTokens: calls.reduce((sum, item) => sum + item.promptTokens, 0),
    outputTokens: calls.reduce((sum, item) => sum + item.outputTokens, 0),
    abstentions: votes.filter((vote) => vote.abstained).length,
    degradedTurns: statements.filter((statement) => statement.degraded).length,
    fallbackCalls: [...statements, ...votes].filter((item) => item.fallbackFrom).length,
    slowRounds: state.rounds
      .filter((round) => (round.end?.realMs ?? 0) > roundLimitMs(state.scenario))
      .map((round) => round.number),
    roundTimeLimitSeconds: roundLimitMs(state.scenario) / 1000,
    claims:
      state.scenario.memory.claims === 'model'
        ? {
            recorded: state.ledger.length,
            nearMatched: state.claims.reduce((sum, claims) => sum + (claims.nearMatched ?? 0), 0),
            notInStatement: state.claims.reduce((sum, claims) => sum + (claims.unverified ?? 0), 0),
            fellBack: state.claims.filter((claims) => claims.source === 'heuristic' && claims.attempts > 0)
              .length,
          }
        : null,
  };
}
