import { describe, expect, it } from 'vitest';
import { clusteredDifference } from '../../src/analytics/clustered-difference.js';
import { pairedDifference } from '../../src/analytics/truth-accuracy.js';

const pair = (cluster: string, first: boolean, second: boolean) => ({ cluster, first, second });

describe('the passage-clustered difference', () => {
  it('matches the bootstrap worked out by hand on three passages', () => {
    // Passage p1: two questions, one right under the first condition only, one under neither: sum +1.
    // p2: two questions, right under both, and under the second only: sum -1.
    // p3: two questions, right under the first only: sum +2.
    const pairs = [
      pair('p1', true, false),
      pair('p1', false, false),
      pair('p2', true, true),
      pair('p2', false, true),
      pair('p3', true, false),
      pair('p3', true, false),
    ];
    // By hand: difference (1 - 1 + 2) / 6 = 1/3. Every resample draws three passages of two
    // questions, so its difference is (s1 + s2 + s3) / 6 over the 27 equally likely draws of sums
    // from {+1, -1, +2}. The lowest, -3/6 (p2 three times), has probability 1/27 = 3.7%, more than
    // the 2.5% tail, so it is the interval's low end; the highest, 6/6 (p3 three times), likewise
    // its high end.
    const result = clusteredDifference(pairs, { resamples: 4000, seed: 3 });
    expect(result).not.toBeNull();
    expect(result?.difference).toBeCloseTo(1 / 3, 10);
    expect(result?.clusters).toBe(3);
    expect(result?.n).toBe(6);
    expect(result?.low).toBeCloseTo(-0.5, 10);
    expect(result?.high).toBeCloseTo(1, 10);
    // Half-width 0.75 against a difference of 1/3: (0.75 / (1/3))^2 = 5.0625 times the 6 questions.
    expect(result?.neededQuestions).toBe(Math.ceil(6 * 5.0625));
  });

  it("draws a question's two readings together, each a half of the question", () => {
    // The hand-worked case above, each question read twice (the answers in both orders) with the
    // same outcome: the same questions, difference, interval and sample size, in questions.
    const once = [
      pair('p1', true, false),
      pair('p1', false, false),
      pair('p2', true, true),
      pair('p2', false, true),
      pair('p3', true, false),
      pair('p3', true, false),
    ];
    const twice = once.flatMap((item) => [
      { ...item, weight: 0.5 },
      { ...item, weight: 0.5 },
    ]);
    const result = clusteredDifference(twice, { resamples: 4000, seed: 3 });
    expect(result).toMatchObject({ n: 6, clusters: 3, neededQuestions: Math.ceil(6 * 5.0625) });
    expect(result?.difference).toBeCloseTo(1 / 3, 10);
    expect(result?.low).toBeCloseTo(-0.5, 10);
    expect(result?.high).toBeCloseTo(1, 10);
    // Two readings that disagree count a half each: p1's first question, right under the first
    // condition in one reading only, adds +0.5 to p1's sum instead of +1.
    const split = clusteredDifference(
      [
        { cluster: 'p1', first: true, second: false, weight: 0.5 },
        { cluster: 'p1', first: false, second: false, weight: 0.5 },
        { cluster: 'p2', first: false, second: false, weight: 0.5 },
        { cluster: 'p2', first: false, second: false, weight: 0.5 },
      ],
      { resamples: 100 },
    );
    expect(split).toMatchObject({ n: 2, clusters: 2, difference: 0.25 });
    // Taken for separate questions in clusters of their own, the readings would narrow the interval.
    const separate = clusteredDifference(
      twice.map((item, at) => ({ cluster: `r${at}`, first: item.first, second: item.second })),
      { resamples: 4000, seed: 3 },
    );
    expect((separate?.high ?? 0) - (separate?.low ?? 0)).toBeLessThan(
      ((result?.high ?? 0) - (result?.low ?? 0)) * 0.7,
    );
  });

  it('is wider than the question-level interval when a passage decides its questions together', () => {
    // Ten passages of four questions; within a passage the questions go the same way.
    const pairs = Array.from({ length: 10 }, (_, p) =>
      Array.from({ length: 4 }, () => pair(`p${p}`, p < 6, p >= 8)),
    ).flat();
    const clustered = clusteredDifference(pairs, { seed: 1 });
    const plain = pairedDifference(pairs.map((item) => [item.first, item.second]));
    expect(clustered?.difference).toBeCloseTo(plain?.difference ?? Number.NaN, 10);
    const widthClustered = (clustered?.high ?? 0) - (clustered?.low ?? 0);
    const widthPlain = (plain?.high ?? 0) - (plain?.low ?? 0);
    expect(widthClustered).toBeGreaterThan(widthPlain * 1.3);
  });

  it('needs no sample size for a zero difference, and is null without pairs', () => {
    expect(clusteredDifference([pair('a', true, true), pair('b', false, false)])?.neededQuestions).toBeNull();
    expect(clusteredDifference([])).toBeNull();
  });
});
