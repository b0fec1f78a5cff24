/**
 * Maximum a posteriori Bradley-Terry strengths by minorization-maximization (Hunter 2004), with each
 * player given virtual ties against a fixed opponent of strength 1 as a prior.
 */

/** Results aggregated per player and per pair, which is all the likelihood depends on. */
export interface PairwiseTotals {
  playerCount: number;
  /** Points per player: 1 per win, 0.5 per tie. */
  scores: Float64Array;
  /** Games played per pair of players (first < second); pairs that never met are absent. */
  pairs: ReadonlyArray<{ first: number; second: number; games: number }>;
}

/**
 * Virtual ties per player against a fixed opponent of strength 1: they keep unbeaten and winless
 * players finite and put groups that never met on one scale, while one game's weight barely moves
 * busy players. The style-controlled fit uses the same prior, so the two agree when style is silent.
 */
export const PRIOR_TIES = 1;
const MAX_CYCLES = 10_000;
const TOLERANCE = 1e-10;

/** Natural-log strengths maximising likelihood plus prior, optionally warm-started from `start`. */
export function fitLogStrengths(totals: PairwiseTotals, start?: Float64Array): Float64Array {
  const { playerCount } = totals;
  const components = connectedComponents(totals);
  const step = (theta: Float64Array): Float64Array => mmStep(totals, components, theta);
  let theta: Float64Array = new Float64Array(playerCount);
  if (start !== undefined) theta.set(start.subarray(0, playerCount));

  // Plain MM crawls when win rates are lopsided (its surrogate is far flatter than the likelihood), so
  // its steps are extrapolated (SQUAREM, Varadhan & Roland 2008). An extrapolation that lowers the
  // objective is discarded for the plain double step, so every cycle still climbs.
  for (let cycle = 0; cycle < MAX_CYCLES; cycle++) {
    const once = step(theta);
    const twice = step(once);
    let stepNorm = 0;
    let curveNorm = 0;
    let largestStep = 0;
    for (let i = 0; i < playerCount; i++) {
      const first = (once[i] ?? 0) - (theta[i] ?? 0);
      const curve = (twice[i] ?? 0) - 2 * (once[i] ?? 0) + (theta[i] ?? 0);
      stepNorm += first * first;
      curveNorm += curve * curve;
      largestStep = Math.max(largestStep, Math.abs(first));
    }
    if (largestStep < TOLERANCE) return once;
    if (curveNorm === 0) {
      theta = twice;
      continue;
    }
    const alpha = Math.min(-1, -Math.sqrt(stepNorm / curveNorm));
    const jump = new Float64Array(playerCount);
    for (let i = 0; i < playerCount; i++) {
      const first = (once[i] ?? 0) - (theta[i] ?? 0);
      const curve = (twice[i] ?? 0) - 2 * (once[i] ?? 0) + (theta[i] ?? 0);
      jump[i] = (theta[i] ?? 0) - 2 * alpha * first + alpha * alpha * curve;
    }
    const landed = step(jump);
    theta = logPosterior(totals, landed) >= logPosterior(totals, twice) ? landed : twice;
  }
  return theta;
}

// One MM update of the log-strengths followed by the exact per-group rescaling.
function mmStep(totals: PairwiseTotals, components: readonly number[][], theta: Float64Array): Float64Array {
  const { playerCount, scores, pairs } = totals;
  const strengths = theta.map(Math.exp);
  // MM update: s_i <- W_i / sum_j n_ij / (s_i + s_j), the prior opponent counted with s = 1.
  const denominators = new Float64Array(playerCount);
  for (let i = 0; i < playerCount; i++) denominators[i] = PRIOR_TIES / ((strengths[i] ?? 1) + 1);
  for (const { first, second, games } of pairs) {
    const share = games / ((strengths[first] ?? 1) + (strengths[second] ?? 1));
    denominators[first] = (denominators[first] ?? 0) + share;
    denominators[second] = (denominators[second] ?? 0) + share;
  }
  const next = new Float64Array(playerCount);
  for (let i = 0; i < playerCount; i++) {
    next[i] = Math.log(((scores[i] ?? 0) + PRIOR_TIES / 2) / (denominators[i] ?? 1));
  }
  // Real games fix strengths within a connected group only up to a common factor that just the weak
  // prior pins, so MM alone also crawls along it; solving for each group's factor exactly is a further
  // ascent step on the same objective.
  for (const members of components) rescaleToPrior(next, members);
  return next;
}

// Log-likelihood of the games plus the prior's virtual ties, up to a constant.
function logPosterior(totals: PairwiseTotals, theta: Float64Array): number {
  let value = 0;
  for (let i = 0; i < totals.playerCount; i++) {
    const own = theta[i] ?? 0;
    value += ((totals.scores[i] ?? 0) + PRIOR_TIES / 2) * own - PRIOR_TIES * logSumExp(own, 0);
  }
  for (const { first, second, games } of totals.pairs) {
    value -= games * logSumExp(theta[first] ?? 0, theta[second] ?? 0);
  }
  return value;
}

// log(e^x + e^y) without overflow.
function logSumExp(x: number, y: number): number {
  const top = Math.max(x, y);
  return top + Math.log1p(Math.exp(-Math.abs(x - y)));
}

// Shifts the group's log-strengths by the amount that maximises the prior terms, the only ones that
// depend on it: the root of sum_i logistic(theta_i + u) = members / 2 in u.
function rescaleToPrior(theta: Float64Array, members: readonly number[]): void {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const i of members) {
    low = Math.min(low, -(theta[i] ?? 0));
    high = Math.max(high, -(theta[i] ?? 0));
  }
  // The root lies where some member is at or above the prior opponent and some at or below it.
  const target = members.length / 2;
  let shift = (low + high) / 2;
  for (let step = 0; step < 100 && high - low > 1e-13; step++) {
    let total = 0;
    let slope = 0;
    for (const i of members) {
      const p = 1 / (1 + Math.exp(-((theta[i] ?? 0) + shift)));
      total += p;
      slope += p * (1 - p);
    }
    if (Math.abs(total - target) < 1e-14 * members.length) break;
    if (total > target) high = shift;
    else low = shift;
    // Newton converges in a few steps; the bracket catches the rare overshoot.
    const newton = shift - (total - target) / slope;
    shift = slope > 0 && newton > low && newton < high ? newton : (low + high) / 2;
  }
  for (const i of members) theta[i] = (theta[i] ?? 0) + shift;
}

// Groups of players linked by games, via union-find.
function connectedComponents(totals: PairwiseTotals): number[][] {
  const parent = Array.from({ length: totals.playerCount }, (_, i) => i);
  const root = (i: number): number => {
    let node = i;
    while (parent[node] !== node) node = parent[node] ?? node;
    return node;
  };
  for (const { first, second } of totals.pairs) parent[root(first)] = root(second);
  const groups = new Map<number, number[]>();
  for (let i = 0; i < totals.playerCount; i++) {
    const key = root(i);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [i]);
    else group.push(i);
  }
  return [...groups.values()];
}
