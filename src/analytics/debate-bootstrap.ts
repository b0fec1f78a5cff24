/**
 * A percentile bootstrap over debates: the debates are drawn with replacement, as many as there
 * are, and the statistic is worked out anew on each draw. The debate is the unit because the
 * verdicts, votes and matches of one debate are not independent of each other.
 */
import { sortedPercentile } from './percentile.js';
import { createRandomStream } from './random-stream.js';

/** Resamples for an interval over debates. */
export const DEBATE_RESAMPLES = 1000;

export interface BootstrapInterval {
  low: number;
  high: number;
  /** Resamples on which the statistic was defined. */
  defined: number;
  resamples: number;
}

/**
 * The 95% percentile interval of `statistic` over resamples of `debates`; null when the statistic
 * was undefined (null) on more than half of them, or there are no debates.
 */
export function bootstrapOverDebates<T>(
  debates: readonly T[],
  statistic: (sample: T[]) => number | null,
  options: { resamples?: number; seed?: number; level?: number } = {},
): BootstrapInterval | null {
  const resamples = options.resamples ?? DEBATE_RESAMPLES;
  const level = options.level ?? 0.95;
  if (debates.length === 0) return null;
  const random = createRandomStream(options.seed ?? 1);
  const values: number[] = [];
  for (let round = 0; round < resamples; round++) {
    const sample = Array.from(
      { length: debates.length },
      () => debates[Math.floor(random() * debates.length)] as T,
    );
    const value = statistic(sample);
    if (value !== null && Number.isFinite(value)) values.push(value);
  }
  if (values.length * 2 < resamples) return null;
  const sorted = Float64Array.from(values).sort();
  const tail = (1 - level) / 2;
  return {
    low: sortedPercentile(sorted, tail),
    high: sortedPercentile(sorted, 1 - tail),
    defined: values.length,
    resamples,
  };
}

/**
 * Percentile intervals for every entry of a vector statistic (all models' ratings from one refit,
 * say), each resample of the debates shared by all entries. Entries that are not finite on a
 * resample are left out of that entry's percentiles; an entry finite on no resample gets NaN ends.
 */
export function bootstrapVectorOverDebates<T>(
  debates: readonly T[],
  statistic: (sample: T[]) => ArrayLike<number>,
  options: { resamples?: number; seed?: number; level?: number } = {},
): Array<{ low: number; high: number }> {
  const resamples = options.resamples ?? DEBATE_RESAMPLES;
  const tail = (1 - (options.level ?? 0.95)) / 2;
  const random = createRandomStream(options.seed ?? 1);
  const columns: number[][] = [];
  for (let round = 0; round < resamples && debates.length > 0; round++) {
    const sample = Array.from(
      { length: debates.length },
      () => debates[Math.floor(random() * debates.length)] as T,
    );
    const values = statistic(sample);
    for (let at = 0; at < values.length; at++) {
      const value = values[at] ?? Number.NaN;
      columns[at] ??= [];
      if (Number.isFinite(value)) columns[at]?.push(value);
    }
  }
  return Array.from(columns, (column) => {
    const sorted = Float64Array.from(column ?? []).sort();
    return { low: sortedPercentile(sorted, tail), high: sortedPercentile(sorted, 1 - tail) };
  });
}
