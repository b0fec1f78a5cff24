/**
 * Confidence intervals for a mean score and for a win rate, used to show how far a leaderboard
 * number can be trusted given how few debates produced it.
 */
import { normalQuantile, studentTQuantile } from './distributions.js';

/** A sample mean with its two-sided confidence interval. */
export interface MeanInterval {
  n: number;
  mean: number;
  low: number;
  high: number;
}

/** An observed rate with its two-sided confidence interval. */
export interface ProportionInterval {
  rate: number;
  low: number;
  high: number;
}

/** Student-t confidence interval for the mean; null when there are no values. */
export function meanInterval(values: number[], level = 0.95): MeanInterval | null {
  assertLevel(level);
  for (const value of values) {
    if (!Number.isFinite(value)) throw new RangeError(`values must be finite numbers, got ${value}`);
  }
  const n = values.length;
  if (n === 0) return null;
  let sum = 0;
  for (const value of values) sum += value;
  const mean = sum / n;
  // A single value says nothing about spread, so the interval collapses to the point.
  if (n === 1) return { n, mean, low: mean, high: mean };
  // Two passes (deviations from the mean) avoid the cancellation of the sum-of-squares shortcut.
  let squares = 0;
  for (const value of values) squares += (value - mean) ** 2;
  const standardError = Math.sqrt(squares / (n - 1) / n);
  const half = studentTQuantile(upperProbability(level), n - 1) * standardError;
  return { n, mean, low: mean - half, high: mean + half };
}

/** Wilson score interval for a proportion; null when there are no trials. */
export function proportionInterval(
  successes: number,
  trials: number,
  level = 0.95,
): ProportionInterval | null {
  assertLevel(level);
  // Fractional counts are allowed so a tie can count as half a win.
  if (!(Number.isFinite(trials) && trials >= 0)) {
    throw new RangeError(`trials must be a non-negative number, got ${trials}`);
  }
  if (!(Number.isFinite(successes) && successes >= 0 && successes <= trials)) {
    throw new RangeError(`successes must lie between 0 and trials, got ${successes} of ${trials}`);
  }
  if (trials === 0) return null;
  const rate = successes / trials;
  const z = normalQuantile(upperProbability(level));
  const z2 = z * z;
  // Wilson rather than the normal approximation: it stays inside [0, 1] and behaves at 0 or n wins.
  const denominator = 1 + z2 / trials;
  const centre = (rate + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((rate * (1 - rate)) / trials + z2 / (4 * trials * trials));
  return { rate, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

// Probability below the upper bound of a two-sided interval at the given level.
function upperProbability(level: number): number {
  return 1 - (1 - level) / 2;
}

function assertLevel(level: number): void {
  if (!(level > 0 && level < 1))
    throw new RangeError(`level must lie strictly between 0 and 1, got ${level}`);
}
