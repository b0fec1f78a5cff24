/**
 * The difference in accuracy between two conditions when questions come in clusters that are not
 * independent (the questions of one passage): a percentile bootstrap that resamples whole clusters,
 * each drawn cluster bringing all its questions, so the interval is as wide as the clusters make it.
 * Beside it, how many questions a run would need for an interval that tells the measured difference
 * from zero.
 */
import { sortedPercentile } from './percentile.js';
import { createRandomStream } from './random-stream.js';

/**
 * One question judged under both conditions: its cluster, and whether each verdict was right. A
 * question read more than once (its answers in both orders) gives one pair per reading, each of
 * `weight` 1/readings, in the question's cluster: the question counts once, its readings averaged,
 * and a resample draws its readings together.
 */
export interface ClusteredPair {
  cluster: string;
  first: boolean;
  second: boolean;
  /** The share of a question this pair stands for; 1 by default. */
  weight?: number;
}

export interface ClusteredDifference {
  /** Questions (the pairs' weights summed), and the clusters they fall in. */
  n: number;
  clusters: number;
  /** Accuracy under the first condition minus under the second. */
  difference: number;
  low: number;
  high: number;
  /**
   * Questions (in clusters of the same size) for the interval's half-width to shrink to the
   * difference measured, were it to stay as measured; null when the difference is zero.
   */
  neededQuestions: number | null;
}

export interface ClusteredOptions {
  resamples?: number;
  seed?: number;
  level?: number;
}

export function clusteredDifference(
  pairs: readonly ClusteredPair[],
  options: ClusteredOptions = {},
): ClusteredDifference | null {
  const resamples = options.resamples ?? 2000;
  const level = options.level ?? 0.95;
  if (pairs.length === 0) return null;
  // Per cluster: its questions, and the sum of their differences (+1, 0 or -1 each).
  const byCluster = new Map<string, { n: number; sum: number }>();
  let questions = 0;
  for (const pair of pairs) {
    const weight = pair.weight ?? 1;
    const cluster = byCluster.get(pair.cluster) ?? { n: 0, sum: 0 };
    cluster.n += weight;
    cluster.sum += weight * (Number(pair.first) - Number(pair.second));
    byCluster.set(pair.cluster, cluster);
    questions += weight;
  }
  // Sorted names make the draws independent of the order the pairs came in.
  const clusters = [...byCluster.keys()]
    .sort()
    .map((name) => byCluster.get(name) as { n: number; sum: number });
  const difference = clusters.reduce((total, c) => total + c.sum, 0) / questions;
  const random = createRandomStream(options.seed ?? 1);
  const draws = new Float64Array(resamples);
  for (let r = 0; r < resamples; r += 1) {
    let n = 0;
    let sum = 0;
    for (let k = 0; k < clusters.length; k += 1) {
      const drawn = clusters[Math.floor(random() * clusters.length)] as { n: number; sum: number };
      n += drawn.n;
      sum += drawn.sum;
    }
    draws[r] = sum / n;
  }
  draws.sort();
  const tail = (1 - level) / 2;
  const low = resamples > 0 ? sortedPercentile(draws, tail) : difference;
  const high = resamples > 0 ? sortedPercentile(draws, 1 - tail) : difference;
  const halfWidth = (high - low) / 2;
  const neededQuestions =
    difference === 0
      ? null
      : Math.max(Math.round(questions), Math.ceil(questions * (halfWidth / Math.abs(difference)) ** 2));
  return { n: questions, clusters: clusters.length, difference, low, high, neededQuestions };
}
