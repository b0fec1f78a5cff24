import { describe, expect, it } from 'vitest';
import { fleissKappa, krippendorffAlpha, pairwiseAgreement } from '../../src/analytics/agreement.js';

// Fleiss (1971), as tabulated on Wikipedia: 10 subjects, 14 raters, 5 categories.
const fleissExample = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

// Krippendorff's reliability data: four observers (A-D) by twelve units, null where a value is missing.
const observers: Array<Array<number | null>> = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
  [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
];
const reliabilityUnits = (observers[0] ?? []).map((_, unit) => observers.map((row) => row[unit] ?? null));

describe('fleissKappa', () => {
  it('reproduces the classic example (kappa ~ 0.210)', () => {
    expect(fleissKappa(fleissExample)).toBeCloseTo(0.20993, 5);
  });

  it('is 1 for perfect agreement', () => {
    expect(
      fleissKappa([
        [3, 0, 0],
        [0, 3, 0],
        [0, 0, 3],
        [3, 0, 0],
      ]),
    ).toBe(1);
  });

  it('is negative when raters systematically split', () => {
    expect(
      fleissKappa([
        [1, 1],
        [1, 1],
      ]),
    ).toBeCloseTo(-1, 12);
  });

  it('is null when it cannot be computed', () => {
    expect(fleissKappa([])).toBeNull();
    expect(fleissKappa([[1, 0]])).toBeNull();
    expect(
      fleissKappa([
        [2, 1],
        [1, 1],
      ]),
    ).toBeNull();
    expect(fleissKappa([[2, 1], [3]])).toBeNull();
    // Everyone always in one category: expected agreement is 1.
    expect(
      fleissKappa([
        [4, 0],
        [4, 0],
      ]),
    ).toBeNull();
  });

  it('rejects counts that are not non-negative integers', () => {
    expect(() => fleissKappa([[3, -1]])).toThrow(RangeError);
    expect(() => fleissKappa([[1.5, 0.5]])).toThrow(RangeError);
  });
});

describe('krippendorffAlpha', () => {
  it('reproduces the reliability-data example for each metric', () => {
    expect(krippendorffAlpha(reliabilityUnits, 'nominal')).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(reliabilityUnits, 'interval')).toBeCloseTo(0.849, 3);
    expect(krippendorffAlpha(reliabilityUnits, 'ordinal')).toBeCloseTo(0.815, 3);
    // Exact values from a direct pair-by-pair computation of the same definition.
    expect(krippendorffAlpha(reliabilityUnits, 'nominal')).toBeCloseTo(0.7434210526, 9);
    expect(krippendorffAlpha(reliabilityUnits, 'interval')).toBeCloseTo(0.8491071429, 9);
    expect(krippendorffAlpha(reliabilityUnits, 'ordinal')).toBeCloseTo(0.8153875038, 9);
  });

  it('uses the interval metric by default', () => {
    expect(krippendorffAlpha(reliabilityUnits)).toBe(krippendorffAlpha(reliabilityUnits, 'interval'));
  });

  it('is 1 for perfect agreement under every metric', () => {
    const units = [
      [1, 1, null],
      [3, 3, 3],
      [2, null, 2],
      [5, 5, 5],
    ];
    for (const metric of ['nominal', 'interval', 'ordinal'] as const) {
      expect(krippendorffAlpha(units, metric)).toBeCloseTo(1, 12);
    }
  });

  it('ignores units with fewer than two values', () => {
    const withLoners = [...reliabilityUnits, [4, null, null, null], [null, null, null, null]];
    expect(krippendorffAlpha(withLoners, 'nominal')).toBe(krippendorffAlpha(reliabilityUnits, 'nominal'));
  });

  it('is negative for systematic disagreement', () => {
    expect(
      krippendorffAlpha(
        [
          [1, 2],
          [2, 1],
        ],
        'nominal',
      ),
    ).toBeCloseTo(-0.5, 12);
  });

  it('does not change when interval data are shifted and rescaled', () => {
    const rescaled = reliabilityUnits.map((unit) =>
      unit.map((value) => (value === null ? null : 10 * value - 7)),
    );
    expect(krippendorffAlpha(rescaled, 'interval')).toBeCloseTo(0.8491071429, 9);
    expect(krippendorffAlpha(rescaled, 'ordinal')).toBeCloseTo(0.8153875038, 9);
  });

  it('is null without pairable values or without possible disagreement', () => {
    expect(krippendorffAlpha([])).toBeNull();
    expect(
      krippendorffAlpha([
        [1, null],
        [null, 2],
      ]),
    ).toBeNull();
    expect(
      krippendorffAlpha([
        [3, 3],
        [3, 3, 3],
      ]),
    ).toBeNull();
  });

  it('rejects non-finite ratings', () => {
    expect(() => krippendorffAlpha([[1, Number.NaN]])).toThrow(RangeError);
  });
});

describe('pairwiseAgreement', () => {
  it('counts agreeing pairs within units', () => {
    const units = [
      ['yes', 'yes', 'no'],
      [true, true],
      ['a', null],
      [null, null],
    ];
    // 1 of 3 pairs agree in the first unit, 1 of 1 in the second; the rest have no pair.
    expect(pairwiseAgreement(units)).toBe(0.5);
  });

  it('is 1 for unanimous units and 0 when every pair differs', () => {
    expect(
      pairwiseAgreement([
        [false, false, false],
        ['x', 'x'],
      ]),
    ).toBe(1);
    expect(pairwiseAgreement([['a', 'b', 'c']])).toBe(0);
  });

  it('does not equate a boolean with its spelling', () => {
    expect(pairwiseAgreement([[true, 'true']])).toBe(0);
  });

  it('is null when no unit has two ratings', () => {
    expect(pairwiseAgreement([])).toBeNull();
    expect(pairwiseAgreement([['a'], [null, 'b'], []])).toBeNull();
  });
});
