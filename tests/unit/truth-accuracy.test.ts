import { describe, expect, it } from 'vitest';
import { accuracyInterval, differenceText, pairedDifference } from '../../src/analytics/truth-accuracy.js';

const pairs = (both: number, firstOnly: number, secondOnly: number, neither: number) => [
  ...Array.from({ length: both }, () => [true, true] as [boolean, boolean]),
  ...Array.from({ length: firstOnly }, () => [true, false] as [boolean, boolean]),
  ...Array.from({ length: secondOnly }, () => [false, true] as [boolean, boolean]),
  ...Array.from({ length: neither }, () => [false, false] as [boolean, boolean]),
];

describe('truth accuracy intervals', () => {
  it('gives Wilson intervals for accuracy', () => {
    // 6 of 8: Wilson 95% is 0.409 to 0.929.
    const interval = accuracyInterval(6, 8);
    expect(interval?.rate).toBe(0.75);
    expect(interval?.low).toBeCloseTo(0.409, 3);
    expect(interval?.high).toBeCloseTo(0.929, 3);
    expect(accuracyInterval(0, 0)).toBeNull();
  });

  it("matches Newcombe's paired interval on the published example (1, 1, 7, 12)", () => {
    // Fagerland, Lydersen and Laake (2014), the airway example: -0.286 (-0.507 to -0.026).
    const difference = pairedDifference(pairs(1, 1, 7, 12));
    expect(difference?.difference).toBeCloseTo(-0.2857, 4);
    expect(difference?.low).toBeCloseTo(-0.507, 3);
    expect(difference?.high).toBeCloseTo(-0.026, 3);
    expect(difference).toMatchObject({ n: 21, firstOnly: 1, secondOnly: 7 });
  });

  it('is symmetric, bounded, and says nothing without pairs', () => {
    const one = pairedDifference(pairs(5, 4, 1, 3));
    const other = pairedDifference(pairs(5, 1, 4, 3));
    expect(one?.low).toBeCloseTo(-(other?.high ?? 0), 12);
    expect(one?.high).toBeCloseTo(-(other?.low ?? 0), 12);
    const all = pairedDifference(pairs(0, 6, 0, 0));
    expect(all?.difference).toBe(1);
    expect(all?.high).toBe(1);
    expect(all?.low).toBeGreaterThan(0);
    // No discordant pair: no difference, and an interval that still admits one.
    const same = pairedDifference(pairs(4, 0, 0, 4));
    expect(same?.difference).toBe(0);
    expect(same?.low).toBeLessThan(0);
    expect(same?.high).toBeGreaterThan(0);
    expect(pairedDifference([])).toBeNull();
    expect(differenceText(null)).toBe('—');
    expect(differenceText(pairedDifference(pairs(1, 1, 7, 12)))).toBe('−29 points (−51 to −3)');
  });
});
