/**
 * Inter-judge agreement: Fleiss' kappa for fixed panels, Krippendorff's alpha for panels with missing
 * ratings, and raw pairwise agreement as the plain-language companion to both.
 */

/** Distance used by {@link krippendorffAlpha} to compare two ratings. */
export type AlphaMetric = 'nominal' | 'interval' | 'ordinal';

/** Fleiss' kappa from per-subject category counts; null when it is not defined for the data. */
export function fleissKappa(subjects: number[][]): number | null {
  const first = subjects[0];
  if (first === undefined) return null;
  const categories = first.length;
  const raters = sum(first);
  if (raters < 2) return null;
  const categoryTotals = new Array<number>(categories).fill(0);
  let observed = 0;
  for (const counts of subjects) {
    for (const count of counts) {
      if (!(Number.isInteger(count) && count >= 0)) {
        throw new RangeError(`rater counts must be non-negative integers, got ${count}`);
      }
    }
    // Kappa assumes every subject was rated by the same number of raters in the same categories.
    if (counts.length !== categories || sum(counts) !== raters) return null;
    let agreeingPairs = 0;
    counts.forEach((count, category) => {
      agreeingPairs += count * (count - 1);
      categoryTotals[category] = (categoryTotals[category] ?? 0) + count;
    });
    observed += agreeingPairs / (raters * (raters - 1));
  }
  observed /= subjects.length;
  const ratings = subjects.length * raters;
  let expected = 0;
  for (const total of categoryTotals) expected += (total / ratings) ** 2;
  // Everyone always picking one category leaves no room for chance-corrected agreement.
  if (1 - expected < 1e-12) return null;
  return (observed - expected) / (1 - expected);
}

/** Krippendorff's alpha for units (rows) of per-rater values, null marking a missing rating. */
export function krippendorffAlpha(
  units: Array<Array<number | null>>,
  metric: AlphaMetric = 'interval',
): number | null {
  // Distinct values and, per pairable unit, how often each value occurs.
  const unitCounts: Array<Map<number, number>> = [];
  const distinct = new Set<number>();
  for (const unit of units) {
    const counts = new Map<number, number>();
    let present = 0;
    for (const value of unit) {
      if (value === null || value === undefined) continue;
      if (!Number.isFinite(value)) throw new RangeError(`ratings must be finite numbers, got ${value}`);
      counts.set(value, (counts.get(value) ?? 0) + 1);
      present++;
    }
    // A lone rating has nothing to be compared with, so the unit carries no information.
    if (present < 2) continue;
    unitCounts.push(counts);
    for (const value of counts.keys()) distinct.add(value);
  }

  const values = [...distinct].sort((x, y) => x - y);
  const indexOf = new Map(values.map((value, index) => [value, index]));
  const size = values.length;
  // Coincidence matrix: each unit with m ratings spreads m pairable values over its m(m-1) ordered pairs.
  const coincidences = new Float64Array(size * size);
  for (const counts of unitCounts) {
    let present = 0;
    for (const count of counts.values()) present += count;
    for (const [c, countC] of counts) {
      for (const [k, countK] of counts) {
        const pairs = c === k ? countC * (countC - 1) : countC * countK;
        const cell = (indexOf.get(c) ?? 0) * size + (indexOf.get(k) ?? 0);
        coincidences[cell] = (coincidences[cell] ?? 0) + pairs / (present - 1);
      }
    }
  }
  const marginals = new Float64Array(size);
  for (let c = 0; c < size; c++) {
    for (let k = 0; k < size; k++) marginals[c] = (marginals[c] ?? 0) + (coincidences[c * size + k] ?? 0);
  }
  const total = sum(marginals);
  if (total < 2) return null;

  const distance = distanceFor(metric, values, marginals);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < size; c++) {
    for (let k = 0; k < size; k++) {
      const delta = distance(c, k);
      observed += (coincidences[c * size + k] ?? 0) * delta;
      expected += (marginals[c] ?? 0) * (marginals[k] ?? 0) * delta;
    }
  }
  // With a single value in use there is no disagreement that chance could produce.
  if (expected === 0) return null;
  return 1 - ((total - 1) * observed) / expected;
}

// Squared distance between the c-th and k-th smallest observed values under the chosen metric.
function distanceFor(
  metric: AlphaMetric,
  values: readonly number[],
  marginals: Float64Array,
): (c: number, k: number) => number {
  switch (metric) {
    case 'nominal':
      return (c, k) => (c === k ? 0 : 1);
    case 'interval':
      return (c, k) => ((values[c] ?? 0) - (values[k] ?? 0)) ** 2;
    case 'ordinal': {
      // Ordinal distance depends only on ranks: the mass of values lying between the two, halves at the ends.
      const cumulative = new Float64Array(marginals.length + 1);
      marginals.forEach((count, index) => {
        cumulative[index + 1] = (cumulative[index] ?? 0) + count;
      });
      return (c, k) => {
        const from = Math.min(c, k);
        const to = Math.max(c, k);
        const between = (cumulative[to + 1] ?? 0) - (cumulative[from] ?? 0);
        return (between - ((marginals[c] ?? 0) + (marginals[k] ?? 0)) / 2) ** 2;
      };
    }
    default:
      throw new RangeError(`unknown metric: ${String(metric)}`);
  }
}

/** Share of agreeing pairs among all pairs of non-null ratings within units; null without any pair. */
export function pairwiseAgreement(units: Array<Array<string | boolean | null>>): number | null {
  let pairs = 0;
  let agreeing = 0;
  for (const unit of units) {
    // Map keys keep `true` and 'true' apart, so a boolean verdict never matches its spelling.
    const counts = new Map<string | boolean, number>();
    let present = 0;
    for (const rating of unit) {
      if (rating === null || rating === undefined) continue;
      counts.set(rating, (counts.get(rating) ?? 0) + 1);
      present++;
    }
    if (present < 2) continue;
    pairs += (present * (present - 1)) / 2;
    for (const count of counts.values()) agreeing += (count * (count - 1)) / 2;
  }
  return pairs === 0 ? null : agreeing / pairs;
}

function sum(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i] ?? 0;
  return total;
}
