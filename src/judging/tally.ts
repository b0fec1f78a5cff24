/**
 * Turns the judges' votes into a decision. The rule (also in docs/rules.md):
 * 1. Rotate when rotate votes reach the threshold.
 * 2. Otherwise, when the non-abstaining votes tie (all abstaining counts as a 0-0 tie), the mean
 *    weighted total decides: below the scale's midpoint rotates, above continues; an exact tie
 *    (or no scores at all) continues with the current debater.
 * 3. Otherwise continue.
 */
import type { Evaluation, Tally } from '../core/events.js';
import { SCORE_MIDPOINT } from './criteria.js';

/** The record of a round whose vote is void: nobody is rotated out or kept on the strength of a failure. */
export function voidTally(evaluations: ReadonlyArray<Evaluation | null>): Tally {
  const cast = evaluations.filter((evaluation): evaluation is Evaluation => evaluation !== null);
  const rotateVotes = cast.filter((evaluation) => !evaluation.continue_vote).length;
  return {
    rotateVotes,
    continueVotes: cast.length - rotateVotes,
    abstentions: evaluations.length - cast.length,
    meanScore: null,
    decision: 'continue',
    decidedBy: 'void',
  };
}

export function tallyVotes(evaluations: ReadonlyArray<Evaluation | null>, threshold: number): Tally {
  const cast = evaluations.filter((evaluation): evaluation is Evaluation => evaluation !== null);
  const rotateVotes = cast.filter((evaluation) => !evaluation.continue_vote).length;
  const continueVotes = cast.length - rotateVotes;
  const abstentions = evaluations.length - cast.length;
  const meanScore =
    cast.length === 0
      ? null
      : Math.round((cast.reduce((sum, evaluation) => sum + evaluation.total_score, 0) / cast.length) * 1000) /
        1000;
  const base = { rotateVotes, continueVotes, abstentions, meanScore };
  if (rotateVotes >= threshold) return { ...base, decision: 'rotate', decidedBy: 'votes' };
  if (rotateVotes === continueVotes) {
    if (meanScore === null || meanScore === SCORE_MIDPOINT)
      return { ...base, decision: 'continue', decidedBy: 'exact-tie' };
    return { ...base, decision: meanScore < SCORE_MIDPOINT ? 'rotate' : 'continue', decidedBy: 'scores' };
  }
  return { ...base, decision: 'continue', decidedBy: 'votes' };
}
