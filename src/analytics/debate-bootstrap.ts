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
