/**
 * Accuracy against known answers: a condition's share of right verdicts with its Wilson interval,
 * and the difference between two conditions on the same questions with Newcombe's interval for
 * paired proportions (his method 10, built from the two Wilson intervals and the correlation of
 * the pairs), which stays inside [-1, 1] and behaves with few questions.
 */
import { type ProportionInterval, proportionInterval } from './intervals.js';

export interface AccuracyInterval extends ProportionInterval {
  correct: number;
  n: number;
}

/** `correct` right verdicts out of `n`, with a 95% Wilson interval; null without verdicts. */
export function accuracyInterval(correct: number, n: number): AccuracyInterval | null {
  const interval = proportionInterval(correct, n);
  return interval ? { ...interval, correct, n } : null;
}

export interface PairedDifference {
  /** Questions judged under both conditions (the pairs' weights summed). */
  n: number;
  /** Right under the first condition only, and under the second only (in questions: a reading of two counts a half). */
  firstOnly: number;
  secondOnly: number;
  /** Accuracy under the first minus accuracy under the second, on the shared questions. */
  difference: number;
  low: number;
  high: number;
}

/**
 * The difference in accuracy between two conditions over the same questions: `pairs` holds, per
 * question judged under both, whether each verdict was right, and optionally the share of a question
 * the pair stands for (a question read in both answer orders gives two pairs of a half each, so it
 * counts once and its two readings are not taken for two independent questions). Null without pairs.
 */
export function pairedDifference(
  pairs: ReadonlyArray<readonly [boolean, boolean] | readonly [boolean, boolean, number]>,
): PairedDifference | null {
  if (pairs.length === 0) return null;
  let n = 0;
  let both = 0;
  let firstOnly = 0;
  let secondOnly = 0;
  for (const [first, second, weight = 1] of pairs) {
    n += weight;
    if (first && second) both += weight;
    else if (first) firstOnly += weight;
    else if (second) secondOnly += weight;
  }
  const neither = n - both - firstOnly - secondOnly;
  const p1 = (both + firstOnly) / n;
  const p2 = (both + secondOnly) / n;
  const w1 = proportionInterval(both + firstOnly, n) as ProportionInterval;
  const w2 = proportionInterval(both + secondOnly, n) as ProportionInterval;
  const margins = (both + firstOnly) * (secondOnly + neither) * (both + secondOnly) * (firstOnly + neither);
  // Newcombe's correlation, its numerator pulled towards 0 by n/2 when positive (as in his paper).
  const cross = both * neither - firstOnly * secondOnly;
  const numerator = cross > 0 ? Math.max(cross - n / 2, 0) : cross;
  const phi = margins === 0 ? 0 : numerator / Math.sqrt(margins);
  const difference = p1 - p2;
  const below = Math.sqrt(
    Math.max(0, (p1 - w1.low) ** 2 - 2 * phi * (p1 - w1.low) * (w2.high - p2) + (w2.high - p2) ** 2),
  );
  const above = Math.sqrt(
    Math.max(0, (w1.high - p1) ** 2 - 2 * phi * (w1.high - p1) * (p2 - w2.low) + (p2 - w2.low) ** 2),
  );
  return {
    n,
    firstOnly,
    secondOnly,
    difference,
    low: Math.max(-1, difference - below),
    high: Math.min(1, difference + above),
  };
}

/** "62% (41-79%)": a share with its interval, as whole percentages. */
export function percentWithInterval(interval: { rate: number; low: number; high: number } | null): string {
  if (!interval) return '—';
  const pct = (value: number) => Math.round(value * 100);
  return `${pct(interval.rate)}% (${pct(interval.low)}–${pct(interval.high)}%)`;
}

/** "+12 points (−5 to +30)": a paired difference in percentage points. */
export function differenceText(difference: PairedDifference | null): string {
  if (!difference) return '—';
  const points = (value: number) => {
    const rounded = Math.round(value * 100);
    return rounded > 0 ? `+${rounded}` : rounded < 0 ? `−${-rounded}` : '0';
  };
  return `${points(difference.difference)} points (${points(difference.low)} to ${points(difference.high)})`;
}
