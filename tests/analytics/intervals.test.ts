import { describe, expect, it } from 'vitest';
import { meanInterval, proportionInterval } from '../../src/analytics/intervals.js';

const repeat = (values: number[], times: number): number[] =>
  Array.from({ length: times }, () => values).flat();

describe('meanInterval', () => {
  it('is null without values', () => {
    expect(meanInterval([])).toBeNull();
  });

  it('collapses to the value for a single observation', () => {
    expect(meanInterval([7.5])).toEqual({ n: 1, mean: 7.5, low: 7.5, high: 7.5 });
  });

  it('matches a hand-computed Student-t interval', () => {
    // mean 3, s = sqrt(2.5), t(0.975, 4) = 2.776445
    const interval = meanInterval([1, 2, 3, 4, 5]);
    expect(interval?.n).toBe(5);
    expect(interval?.mean).toBe(3);
    expect(interval?.low).toBeCloseTo(1.0367568, 6);
    expect(interval?.high).toBeCloseTo(4.9632432, 6);
  });

  it('honours the confidence level', () => {
    const interval = meanInterval([2.1, 3.4, 1.9, 5.6, 4.4, 3.3, 2.8], 0.9);
    expect(interval?.mean).toBeCloseTo(3.3571429, 6);
    expect(interval?.low).toBeCloseTo(2.4024883, 6);
    expect(interval?.high).toBeCloseTo(4.3117974, 6);
  });

  it('contains the mean and widens with the level', () => {
    const values = [3, 8, 1, 9, 4, 4, 7];
    const narrow = meanInterval(values, 0.5);
    const wide = meanInterval(values, 0.99);
    if (narrow === null || wide === null) throw new Error('expected intervals');
    expect(narrow.low).toBeLessThan(narrow.mean);
    expect(narrow.high).toBeGreaterThan(narrow.mean);
    expect(wide.low).toBeLessThan(narrow.low);
    expect(wide.high).toBeGreaterThan(narrow.high);
  });

  it('shrinks as the sample grows with the same spread', () => {
    const widths = [1, 2, 4, 16].map((times) => {
      const interval = meanInterval(repeat([1, 2, 3, 4, 5], times));
      if (interval === null) throw new Error('expected an interval');
      expect(interval.mean).toBeCloseTo(3, 12);
      return interval.high - interval.low;
    });
    for (let i = 1; i < widths.length; i++) expect(widths[i]).toBeLessThan(widths[i - 1] ?? 0);
  });

  it('has zero width when every value is equal', () => {
    expect(meanInterval([4, 4, 4, 4])).toEqual({ n: 4, mean: 4, low: 4, high: 4 });
  });

  it('rejects invalid levels and non-finite values', () => {
    expect(() => meanInterval([1, 2], 1)).toThrow(RangeError);
    expect(() => meanInterval([1, 2], 0)).toThrow(RangeError);
    expect(() => meanInterval([1, Number.NaN])).toThrow(RangeError);
  });
});

describe('proportionInterval', () => {
  it('is null without trials', () => {
    expect(proportionInterval(0, 0)).toBeNull();
  });

  it.each([
    [8, 10, 0.95, 0.4901625, 0.9433178],
    [45, 100, 0.95, 0.3561454, 0.547554],
    [3, 7, 0.9, 0.1864432, 0.7105229],
  ])('matches the Wilson score interval for %i of %i at %f', (successes, trials, level, low, high) => {
    const interval = proportionInterval(successes, trials, level);
    expect(interval?.rate).toBeCloseTo(successes / trials, 12);
    expect(interval?.low).toBeCloseTo(low, 6);
    expect(interval?.high).toBeCloseTo(high, 6);
  });

  it('stays inside [0, 1] at the extremes', () => {
    const none = proportionInterval(0, 10);
    expect(none?.low).toBe(0);
    expect(none?.high).toBeCloseTo(0.2775328, 6);
    const all = proportionInterval(10, 10);
    expect(all?.high).toBe(1);
    expect(all?.low).toBeCloseTo(0.7224672, 6);
  });

  it('mirrors when successes and failures swap', () => {
    const wins = proportionInterval(3, 11);
    const losses = proportionInterval(8, 11);
    expect(wins?.low).toBeCloseTo(1 - (losses?.high ?? 0), 12);
    expect(wins?.high).toBeCloseTo(1 - (losses?.low ?? 0), 12);
  });

  it('contains the rate and shrinks with more trials', () => {
    let previousWidth = Number.POSITIVE_INFINITY;
    for (const trials of [10, 40, 160, 640]) {
      const interval = proportionInterval(trials * 0.3, trials);
      if (interval === null) throw new Error('expected an interval');
      expect(interval.low).toBeLessThan(interval.rate);
      expect(interval.high).toBeGreaterThan(interval.rate);
      expect(interval.high - interval.low).toBeLessThan(previousWidth);
      previousWidth = interval.high - interval.low;
    }
  });

  it('accepts half wins from ties', () => {
    const interval = proportionInterval(2.5, 5);
    expect(interval?.rate).toBe(0.5);
    expect((interval?.low ?? 0) + (interval?.high ?? 0)).toBeCloseTo(1, 12);
  });

  it('rejects impossible counts', () => {
    expect(() => proportionInterval(6, 5)).toThrow(RangeError);
    expect(() => proportionInterval(-1, 5)).toThrow(RangeError);
    expect(() => proportionInterval(1, Number.NaN)).toThrow(RangeError);
    expect(() => proportionInterval(1, 5, 1.5)).toThrow(RangeError);
  });
});
