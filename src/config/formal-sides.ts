/** Which of a formal debate's two debaters argues for the motion, and which against. */
import { seededFraction } from '../rotation/seeded-random.js';
import type { FormalDebater } from './formal-schema.js';
import type { FormalScenario } from './scenario.js';

export type FormalSide = 'affirmative' | 'negative';

/** Sides are drawn by seed from the two debaters (requirement 2.2), the same draw on every resume. */
export function formalSides(scenario: FormalScenario): Record<FormalSide, FormalDebater> {
  const [first, second] = scenario.debaters ?? [];
  if (!first || !second) throw new Error('a formal debate needs its two debaters resolved before it starts');
  return seededFraction(scenario.seed, 'sides') < 0.5
    ? { affirmative: first, negative: second }
    : { affirmative: second, negative: first };
}
