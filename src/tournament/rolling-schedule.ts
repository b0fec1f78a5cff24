/**
 * When an adaptive tournament chooses its next pairing, and from which results: as soon as slots
 * are free, not after a whole batch, and still the same choices whichever debate happens to end
 * first (docs/decisions/033-adaptive-pairings-from-a-settled-prefix.md).
 *
 * The debates are numbered in the order they are planned. The pairing that will hold debates P + 1
 * and P + 2 (P planned so far) is chosen once every debate numbered up to P + 2 − lag has ended,
 * from the results of exactly those debates; a debate numbered above that counts only as a debate
 * on its way (its pair's uncertainty narrows as if it had been played), even when it has already
 * ended. The choice is then a function of the seed, the plan so far and the outcomes of a numbered
 * prefix of it: a tournament run with two workers or ten, killed and resumed, or run again in
 * another folder, plans the same debates as long as the debates end the same way.
 *
 * The lag is the debates at a time rounded up to whole pairings, plus one pairing: while the debates
 * end about in the order they started, the next pairing is chosen before a slot frees, so no slot
 * waits for a choice; a debate that runs long holds the choices back only once the debates planned
 * after it fill the lag.
 */
import type { TournamentMatch } from '../analytics/tournament-match.js';
import type { TournamentState } from './tournament-log.js';
import { adaptiveMatches, type PlannedMatch } from './tournament-plan.js';

/** Debates that may be planned beyond the prefix the next choice reads: a pairing more than the slots. */
export function schedulingLag(concurrency: number): number {
  return 2 * Math.ceil(Math.max(1, concurrency) / 2) + 2;
}

/** The number of the last debate the next choice reads: P + 2 − lag (0 or less: none). */
export function choicePrefix(planned: number, lag: number): number {
  return planned + 2 - lag;
}

/**
 * The next pairing of an adaptive tournament (two debates, sides swapped), or none: none while a
 * debate of the prefix the choice reads is still to end (`settled` says which have: ended in the
 * log, or failed in this process, which records no result), and none when the budget or the
 * pairings are used up.
 */
export function nextRollingMatches(
  state: TournamentState,
  lag: number,
  settled: (match: PlannedMatch) => boolean,
): PlannedMatch[] {
  const prefix = choicePrefix(state.planned.length, lag);
  const read = state.planned.filter((match) => match.index <= prefix);
  if (!read.every(settled)) return [];
  const results: TournamentMatch[] = read.flatMap((match) => {
    const end = state.ended.get(match.runId);
    return end && end.status !== 'failed' && end.match ? [end.match] : [];
  });
  return adaptiveMatches(state.start.spec, state.start.id, state.planned, results, 1);
}

/** `nextRollingMatches` with its lag fixed, as the tournament's runner asks for the next matches. */
export const rollingChoice =
  (lag: number) =>
  (state: TournamentState, settled: (match: PlannedMatch) => boolean): PlannedMatch[] =>
    nextRollingMatches(state, lag, settled);
