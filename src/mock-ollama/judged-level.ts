/**
 * How good a simulated judge finds the material it judges: the level its scores centre on.
 *
 * - **Judges of the same material broadly agree.** The level is drawn from a hash of the material
 *   before the judge's own task, read as a set of lines: the judges of one exchange share it, and
 *   the same debate shown with its sides introduced in another order is judged alike (the
 *   side-swap check).
 * - **Scores bunch in the middle.** Small models rarely give the lowest or the highest mark; the
 *   level follows a bell over the scale centred a little above its midpoint (on 1-5: about 1%
 *   ones, 15% twos, 43% threes, 34% fours and 7% fives), so two statements alike in quality are
 *   rarely a whole scale apart, and an all-ones or all-fives verdict is rare, as with real judges.
 */
import type { LevelSource } from './coherent-answer.js';
import { createRng, hashOf } from './random.js';

/** The weight of each point of a scale of `size` points: a bell centred at 0.58 of the scale. */
export function levelWeights(size: number): number[] {
  if (size <= 1) return [1];
  const weights = Array.from({ length: size }, (_, index) => {
    const distance = index / (size - 1) - 0.58;
    return Math.exp(-(distance * distance) / (2 * 0.22 * 0.22));
  });
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => weight / total);
}

/** A point of [low, high] drawn with `levelWeights` from a uniform `u` in [0, 1). */
export function levelFrom(u: number, low: number, high: number): number {
  const weights = levelWeights(high - low + 1);
  let cumulative = 0;
  for (const [index, weight] of weights.entries()) {
    cumulative += weight;
    if (u < cumulative) return low + index;
  }
  return high;
}

/**
 * What identifies the material before a judge's task: its lines as a set, so the same debate shown
 * with its sides introduced in another order is the same material.
 */
export function materialHash(messages: readonly string[]): string {
  return hashOf(messages.flatMap((message) => message.split('\n')).sort());
}

/** The level source for a judge whose material has the hash `material`. */
export function levelSource(material: string): LevelSource {
  return (group, low, high) => levelFrom(createRng(material, `level:${group}`).next(), low, high);
}

/** The level source for a judge whose material (the messages before its own task) is `messages`. */
export function judgedLevel(messages: readonly string[]): LevelSource {
  return levelSource(materialHash(messages));
}
