/** transcript.json for a knockout run: the debate as data, built from the state. */

import { seatModel } from '../../core/person-seat.js';
import { knockoutResult } from './result.js';
import { type KnockoutState, rotationsOf, statusOf } from './state.js';
import { type KnockoutStats, knockoutStats } from './stats.js';
import { roundLimitMs } from './thresholds.js';

export function knockoutTranscript(state: KnockoutState) {
  const { scenario } = state;
  const stats: KnockoutStats = knockoutStats(state);
  const order = scenario.agents.map((agent) => agent.name);
  return {
    runId: state.runId,
    format: 'knockout' as const,
    title: scenario.title ?? null,
    topic: scenario.topic,
    positions: scenario.positions,
    seed: scenario.seed,
    status: statusOf(state),
    stopReason: state.end?.stopReason ?? null,
    error: state.end?.error ?? null,
    agents: scenario.agents.map((agent) => ({
      name: agent.name,
      position: agent.position,
      model: seatModel(agent),
    })),
    rounds: state.rounds.map((round) => ({
      number: round.number,
      debatingY: round.debater,
      statements: round.statements.map((statement) => ({
        agent: statement.agent,
        position: statement.position,
        model: statement.model,
        text: statement.text,
        promptTokens: statement.promptTokens,
        outputTokens: statement.outputTokens,
        ...(statement.thinkingTokens ? { thinkingTokens: statement.thinkingTokens } : {}),
        simulatedSeconds: statement.simulatedSeconds,
        truncated: statement.truncated,
        ...(statement.degraded ? { degraded: true, failureReason: statement.failureReason ?? '' } : {}),
        ...(statement.fallbackFrom ? { fallbackFrom: statement.fallbackFrom } : {}),
      })),
      // Judges in scenario order, whatever order their concurrent answers arrived in.
      evaluations: [...round.votes]
        .sort((a, b) => order.indexOf(a.judge) - order.indexOf(b.judge))
        .map((vote) => ({
          judge: vote.judge,
          model: vote.model,
          abstained: vote.abstained,
          ...(vote.fallbackFrom ? { fallbackFrom: vote.fallbackFrom } : {}),
          ...(vote.abstainReason ? { abstainReason: vote.abstainReason } : {}),
          ...(vote.evaluation ?? {}),
        })),
      outcome: round.end
        ? {
            result: round.end.outcome,
            decision: round.end.tally.decision,
            decidedBy: round.end.tally.decidedBy,
            rotateVotes: round.end.tally.rotateVotes,
            continueVotes: round.end.tally.continueVotes,
            abstentions: round.end.tally.abstentions,
            meanScore: round.end.tally.meanScore,
          }
        : null,
      transition: round.end?.transition ?? null,
      realMs: round.end?.realMs ?? null,
      // Of realMs, the time models spent loading for the round's statements, reported apart.
      loadMs: round.statements.reduce((sum, statement) => sum + (statement.loadMs ?? 0), 0),
      slow: (round.end?.realMs ?? 0) > roundLimitMs(scenario),
    })),
    rotations: rotationsOf(state),
    summaries: state.summaries.map((summary) => ({
      fromRound: summary.fromRound ?? 1,
      throughRound: summary.throughRound,
      model: summary.model,
      text: summary.text,
    })),
    // The commentator's words, for readers; no agent ever saw them.
    commentary: state.commentary.map((item) => ({
      round: item.round,
      model: item.model,
      text: item.text,
      ...(item.failed ? { failed: item.failed } : {}),
    })),
    // How the knockout ended for Position X (see result.ts).
    result: knockoutResult(state),
    stats,
    startedAt: state.startedAt,
    updatedAt: state.updatedAt,
  };
}

export type KnockoutTranscript = ReturnType<typeof knockoutTranscript>;
