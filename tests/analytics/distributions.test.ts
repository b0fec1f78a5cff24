import { describe, expect, it } from 'vitest';
import {
  logGamma,
  normalCdf,
  normalQuantile,
  regularizedIncompleteBeta,
  studentTCdf,
  studentTQuantile,
} from '../../src/analytics/distributions.js';

describe('studentTQuantile', () => {
  it.each([
    [1, 12.706],
    [2, 4.303],
    [5, 2.571],
    [10, 2.228],
    [30, 2.042],
    [1000, 1.962],
  ])('matches the printed two-sided 95%% table value for df = %i', (df, table) => {
    expect(studentTQuantile(0.975, df)).toBeCloseTo(table, 3);
  });

  it.each([
    [0.975, 1, 12.7062047],
    [0.975, 2, 4.3026527],
    [0.975, 5, 2.5705818],
    [0.975, 10, 2.2281389],
    [0.975, 30, 2.0422725],
    [0.975, 1000, 1.9623391],
    [0.995, 10, 3.1692727],
    [0.95, 20, 1.7247182],
    [0.975, 2.5, 3.5746548],
  ])('quantile %f with df = %f is %f to six decimals', (p, df, expected) => {
    expect(studentTQuantile(p, df)).toBeCloseTo(expected, 6);
  });

  it('is antisymmetric about the median', () => {
    expect(studentTQuantile(0.5, 7)).toBe(0);
    expect(studentTQuantile(0.025, 3)).toBeCloseTo(-3.1824463, 6);
    expect(studentTQuantile(0.1, 4)).toBeCloseTo(-studentTQuantile(0.9, 4), 10);
  });

  it('inverts the cumulative distribution', () => {
    for (const df of [1, 3, 12, 250]) {
      for (const p of [0.001, 0.2, 0.6, 0.95, 0.9999]) {
        expect(studentTCdf(studentTQuantile(p, df), df)).toBeCloseTo(p, 9);
      }
    }
  });

  it('approaches the normal quantile as degrees of freedom grow', () => {
    expect(studentTQuantile(0.975, Number.POSITIVE_INFINITY)).toBe(normalQuantile(0.975));
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(normalQuantile(0.975), 5);
  });

  it('rejects probabilities outside (0, 1) and non-positive degrees of freedom', () => {
    expect(() => studentTQuantile(1, 5)).toThrow(RangeError);
    expect(() => studentTQuantile(0, 5)).toThrow(RangeError);
    expect(() => studentTQuantile(0.9, 0)).toThrow(RangeError);
    expect(() => studentTQuantile(Number.NaN, 5)).toThrow(RangeError);
  });
});

describe('normalQuantile', () => {
  it.each([
    [0.5, 0],
    [0.975, 1.959964],
    [0.995, 2.5758293],
    [0.9, 1.2815516],
    [0.001, -3.0902323],
    [1e-10, -6.3613409],
  ])('quantile %f is %f', (p, expected) => {
    expect(normalQuantile(p)).toBeCloseTo(expected, 6);
  });
});

describe('special functions', () => {
  it('logGamma matches factorials and Gamma(1/2) = sqrt(pi)', () => {
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(101)).toBeCloseTo(363.73937555556347, 9);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
    expect(logGamma(0.1)).toBeCloseTo(2.252712651734206, 12);
  });

  it('regularizedIncompleteBeta has its closed forms and symmetry', () => {
    expect(regularizedIncompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 12);
    expect(regularizedIncompleteBeta(0.5, 4, 4)).toBeCloseTo(0.5, 12);
    // I_x(a, 1) = x^a
    expect(regularizedIncompleteBeta(0.7, 3, 1)).toBeCloseTo(0.7 ** 3, 12);
    expect(regularizedIncompleteBeta(0.2, 2.5, 6)).toBeCloseTo(
      1 - regularizedIncompleteBeta(0.8, 6, 2.5),
      12,
    );
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
  });
});

describe('normalCdf', () => {
  it('matches reference values and inverts normalQuantile', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959963985)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1)).toBeCloseTo(0.158655254, 6);
    expect(normalCdf(-3)).toBeCloseTo(0.001349898, 6);
    for (const p of [0.01, 0.2, 0.5, 0.9, 0.999]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 6);
    expect(normalCdf(2) + normalCdf(-2)).toBeCloseTo(1, 12);
  });
});
