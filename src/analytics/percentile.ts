/** Linear-interpolation percentile of already sorted values (q in [0, 1]); NaN when empty. */
export function sortedPercentile(sorted: ArrayLike<number>, q: number): number {
  const count = sorted.length;
  if (count === 0) return Number.NaN;
  // Interpolating between order statistics (the common "type 7" rule) keeps small bootstraps smooth.
  const position = Math.min(Math.max(q, 0), 1) * (count - 1);
  const below = Math.floor(position);
  const above = Math.min(below + 1, count - 1);
  const lower = sorted[below] ?? Number.NaN;
  const upper = sorted[above] ?? Number.NaN;
  return lower + (upper - lower) * (position - below);
}
