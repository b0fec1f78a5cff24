/** Judging criteria: scores are 1-5, the weighted total is sum(weight × score). */
import type { Criterion } from '../config/scenario-schema.js';

export const SCORE_MIN = 1;
export const SCORE_MAX = 5;
/** Midpoint of the scale; a tied vote rotates when the mean weighted total is below it. */
export const SCORE_MIDPOINT = (SCORE_MIN + SCORE_MAX) / 2;

export type Criteria = Record<string, Criterion>;

export function weightedTotal(scores: Record<string, number>, criteria: Criteria): number {
  let total = 0;
  for (const [name, criterion] of Object.entries(criteria)) total += criterion.weight * (scores[name] ?? 0);
  return Math.round(total * 1000) / 1000;
}

/** True when a vote contradicts the judge's own scores (continue below the midpoint, rotate above it). */
export function voteContradictsScores(total: number, continueVote: boolean): boolean {
  return continueVote ? total < SCORE_MIDPOINT : total > SCORE_MIDPOINT;
}

/** The criteria as a judge reads them, one a line: the weight, the description, what each score means. */
export function criteriaLines(criteria: Criteria): string {
  return Object.entries(criteria)
    .map(([name, criterion]) => {
      const guide = Object.entries(criterion.scoring_guide ?? {})
        .map(([score, meaning]) => `${score} = ${meaning}`)
        .join('; ');
      return `- ${name} (weight ${criterion.weight})${criterion.description ? `: ${criterion.description}` : ''}${guide ? ` [${guide}]` : ''}`;
    })
    .join('\n');
}
