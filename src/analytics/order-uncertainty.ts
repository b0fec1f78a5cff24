/**
 * How sure a Bradley-Terry fit is of each pair's order, without a bootstrap: the Laplace
 * approximation around the fitted strengths (their covariance is the inverse of the objective's
 * curvature, prior included), so P(order wrong) = Φ(−|θ_i − θ_j| / sd(θ_i − θ_j)). Cheap enough to
 * work out after every batch of a tournament, which is what the adaptive schedule does with it.
 */
import { fitLogStrengths, type PairwiseTotals, PRIOR_TIES } from './bradley-terry-fit.js';
import { normalCdf } from './distributions.js';
import { symmetricInverse } from './symmetric-solve.js';

/** One pair of players and how likely the fit has their order the wrong way round. */
export interface PairOrderUncertainty {
  first: number;
  second: number;
  /** θ_first − θ_second, natural-log strengths. */
  gap: number;
  /** Approximate standard deviation of the gap. */
  spread: number;
  /** Φ(−|gap| / spread): 0.5 when the fit cannot tell them apart at all. */
  probabilityWrong: number;
}

/** The plain fit and, for every pair of players, the chance that its order is wrong. */
export function orderUncertainty(totals: PairwiseTotals): {
  logStrengths: Float64Array;
  pairs: PairOrderUncertainty[];
} {
  const logStrengths = fitLogStrengths(totals);
  return { logStrengths, pairs: pairOrderUncertainty(logStrengths, totals.pairs) };
}

/**
 * For every pair of players, the chance that fitted strengths `theta` have its order wrong, with
 * the curvature of `games` (the games fitted, and any whose result is still to come: they narrow
 * the spread without moving the strengths).
 */
export function pairOrderUncertainty(
  theta: Float64Array,
  games: PairwiseTotals['pairs'],
): PairOrderUncertainty[] {
  const size = theta.length;
  const information = Array.from({ length: size }, () => new Float64Array(size));
  for (let i = 0; i < size; i++) {
    const p = 1 / (1 + Math.exp(-(theta[i] ?? 0)));
    (information[i] as Float64Array)[i] = PRIOR_TIES * p * (1 - p);
  }
  for (const { first, second, games: count } of games) {
    if (first === second) continue;
    const p = 1 / (1 + Math.exp((theta[second] ?? 0) - (theta[first] ?? 0)));
    const weight = count * p * (1 - p);
    const a = information[first] as Float64Array;
    const b = information[second] as Float64Array;
    a[first] = (a[first] ?? 0) + weight;
    b[second] = (b[second] ?? 0) + weight;
    a[second] = (a[second] ?? 0) - weight;
    b[first] = (b[first] ?? 0) - weight;
  }
  const covariance = symmetricInverse(information);
  const pairs: PairOrderUncertainty[] = [];
  for (let i = 0; i < size; i++) {
    for (let j = i + 1; j < size; j++) {
      const gap = (theta[i] ?? 0) - (theta[j] ?? 0);
      const variance = covariance
        ? ((covariance[i] as Float64Array)[i] ?? 0) +
          ((covariance[j] as Float64Array)[j] ?? 0) -
          2 * ((covariance[i] as Float64Array)[j] ?? 0)
        : Number.POSITIVE_INFINITY;
      const spread = Math.sqrt(Math.max(variance, 0));
      const probabilityWrong = spread > 0 ? normalCdf(-Math.abs(gap) / spread) : gap === 0 ? 0.5 : 0;
      pairs.push({ first: i, second: j, gap, spread, probabilityWrong });
    }
  }
  return pairs;
}
