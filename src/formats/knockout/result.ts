/**
 * How the knockout ended for Position X. X faces one Position Y debater after another; the panel of
 * sitting Y agents decides after each round whether the current Y debater held up. So:
 * - X "knocked out" a Y debater when a vote removed that debater from the floor (a rotation, or a
 *   vote against in the final round);
 * - the verdict is the panel's last decision with a verdict (void votes have none): against the
 *   Y debater on the floor, X prevails; for them, Y holds; no verdict at all, undecided.
 * The rotation limit and a lack of eligible replacements keep a beaten debater on the floor, but
 * the vote still went against them, so it counts as X prevailing when it is the last verdict.
 */
import { type KnockoutStanding, knockoutSentence } from './knockout-outcome.js';
import type { KnockoutState } from './state.js';
import { knockoutFailures, statusOf, xAgentOf } from './state.js';

/** The knockout's outcome for Position X, as transcript.json carries it. */
export interface KnockoutResult extends KnockoutStanding {
  /** The scenario's rounds, to say how far a run got. */
  plannedRounds: number;
  /** Who won and why (or how far an unfinished run got), in one sentence for reports and pages. */
  summary: string;
  /** A few words for a list of runs. */
  headline: string;
}

export function knockoutResult(state: KnockoutState): KnockoutResult {
  const { scenario } = state;
  const x = xAgentOf(scenario).name;
  const ended = state.rounds.filter((round) => round.end);
  const faced = [...new Set(ended.map((round) => round.debater))];
  const knockedOut = faced.filter((name) =>
    ended.some(
      (round) =>
        round.debater === name && (round.end?.outcome === 'rotation' || round.end?.outcome === 'debate-over'),
    ),
  );
  const last = ended.filter((round) => round.end?.outcome !== 'void').at(-1);
  const verdict = !last ? 'undecided' : last.end?.tally.decision === 'rotate' ? 'x-prevails' : 'y-holds';
  const { x: xPosition, y: yPosition } = scenario.positions;
  const status = statusOf(state);
  const facts = {
    x,
    xPosition,
    yPosition,
    faced,
    knockedOut,
    verdict,
    finalDebater: last?.debater ?? null,
    decidedInRound: last?.number ?? null,
    roundsPlayed: ended.length,
    plannedRounds: scenario.debate.rounds,
  } as const;
  const settled = status === 'completed' || status === 'degraded';
  const tally = `${knockedOut.length} of ${faced.length} Y knocked out`;
  return {
    ...facts,
    summary: knockoutSentence({
      ...facts,
      status,
      stopReason: state.end?.stopReason ?? null,
      error: state.end?.error ?? null,
      failedSteps: knockoutFailures(state).length,
    }),
    headline: !settled
      ? `No result: ${status === 'running' ? 'running' : status} after round ${ended.length} of ${scenario.debate.rounds}; ${tally}`
      : `${!last ? 'Undecided' : verdict === 'x-prevails' ? `X (${xPosition}) prevails` : `Y (${yPosition}) holds, ${last.debater} kept`}; ${tally}`,
  };
}
