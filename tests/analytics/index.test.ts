import { describe, expect, it } from 'vitest';
import * as analytics from '../../src/analytics/index.js';

describe('analytics entry point', () => {
  it('re-exports the statistics', () => {
    expect(analytics.meanInterval([2, 4])?.mean).toBe(3);
    expect(analytics.proportionInterval(1, 2)?.rate).toBe(0.5);
    expect(analytics.bradleyTerry([{ a: 'x', b: 'y', winner: 'tie' }], { bootstrap: 0 })).toHaveLength(2);
    expect(
      analytics.fleissKappa([
        [2, 0],
        [0, 2],
      ]),
    ).toBe(1);
    expect(
      analytics.krippendorffAlpha([
        [1, 1],
        [2, 2],
      ]),
    ).toBe(1);
    expect(analytics.pairwiseAgreement([['a', 'a']])).toBe(1);
    expect(analytics.studentTQuantile(0.975, 10)).toBeCloseTo(2.228, 3);
    expect(analytics.normalQuantile(0.975)).toBeCloseTo(1.96, 2);
  });
});
