/**
 * Quantiles of the standard normal and Student-t distributions, written out so the analytics stay
 * dependency-free. Accuracy is far beyond what confidence intervals on leaderboards need.
 */

// Lanczos approximation (g = 7, nine terms): relative error near 1e-15 for positive arguments.
const LANCZOS_G = 7;
const LANCZOS_COEFFICIENTS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** Natural logarithm of the gamma function for x > 0. */
export function logGamma(x: number): number {
  if (x < 0.5) {
    // Reflection keeps the series in the region where it is accurate.
    return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  }
  const z = x - 1;
  let sum = LANCZOS_COEFFICIENTS[0] ?? 1;
  for (let i = 1; i < LANCZOS_COEFFICIENTS.length; i++) {
    sum += (LANCZOS_COEFFICIENTS[i] ?? 0) / (z + i);
  }
  const t = z + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const TINY = 1e-300;
const EPSILON = 1e-15;
const MAX_FRACTION_TERMS = 10_000;

// Continued fraction for the incomplete beta (modified Lentz); converges fast when x < (a+1)/(a+b+2).
function betaContinuedFraction(a: number, b: number, x: number): number {
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let result = d;
  for (let m = 1; m <= MAX_FRACTION_TERMS; m++) {
    const twoM = 2 * m;
    const even = (m * (b - m) * x) / ((a - 1 + twoM) * (a + twoM));
    d = 1 + even * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + even / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    result *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + twoM) * (a + 1 + twoM));
    d = 1 + odd * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + odd / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    result *= step;
    if (Math.abs(step - 1) < EPSILON) break;
  }
  return result;
}

/** Regularized incomplete beta function I_x(a, b) for a, b > 0 and 0 <= x <= 1. */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  const front = Math.exp(logFront);
  // Use the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) to stay where the fraction converges.
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(T > t) for Student's t with `df` degrees of freedom, for t >= 0. */
function studentTUpperTail(t: number, df: number): number {
  // Computed directly (not as 1 - cdf) so small tail areas keep their precision.
  return 0.5 * regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** Cumulative distribution function of Student's t with finite `df` > 0 degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  assertDegreesOfFreedom(df);
  if (!Number.isFinite(df)) throw new RangeError('studentTCdf needs finite degrees of freedom');
  if (Number.isNaN(t)) return Number.NaN;
  const tail = studentTUpperTail(Math.abs(t), df);
  return t >= 0 ? 1 - tail : tail;
}

/** Quantile (inverse CDF) of Student's t with `df` > 0 degrees of freedom; df = Infinity gives the normal. */
export function studentTQuantile(p: number, df: number): number {
  assertProbability(p);
  assertDegreesOfFreedom(df);
  if (!Number.isFinite(df)) return normalQuantile(p);
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  const target = 1 - p;
  // The upper tail falls monotonically in t, so bracket by doubling and then bisect.
  let low = 0;
  let high = 1;
  while (studentTUpperTail(high, df) > target) {
    low = high;
    high *= 2;
    if (!Number.isFinite(high)) return Number.POSITIVE_INFINITY;
  }
  for (let i = 0; i < 200 && high - low > 1e-13 * high; i++) {
    const mid = (low + high) / 2;
    if (studentTUpperTail(mid, df) > target) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

// Rational approximations (Acklam) for the normal quantile: relative error below 1.2e-9.
const CENTRAL_NUMERATOR = [
  -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
  2.506628277459239,
];
const CENTRAL_DENOMINATOR = [
  -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
];
const TAIL_NUMERATOR = [
  -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
  2.938163982698783,
];
const TAIL_DENOMINATOR = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
const TAIL_CUTOFF = 0.02425;

// Horner evaluation of a polynomial whose coefficients run from the highest power down.
function polynomial(coefficients: readonly number[], x: number): number {
  let value = 0;
  for (const coefficient of coefficients) value = value * x + coefficient;
  return value;
}

/** Quantile (inverse CDF) of the standard normal distribution. */
export function normalQuantile(p: number): number {
  assertProbability(p);
  if (p === 0.5) return 0;
  if (p < TAIL_CUTOFF) {
    const q = Math.sqrt(-2 * Math.log(p));
    return polynomial(TAIL_NUMERATOR, q) / (polynomial(TAIL_DENOMINATOR, q) * q + 1);
  }
  if (p > 1 - TAIL_CUTOFF) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (polynomial(CENTRAL_NUMERATOR, r) * q) / (polynomial(CENTRAL_DENOMINATOR, r) * r + 1);
}

function assertProbability(p: number): void {
  if (!(p > 0 && p < 1)) throw new RangeError(`probability must lie strictly between 0 and 1, got ${p}`);
}

function assertDegreesOfFreedom(df: number): void {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be positive, got ${df}`);
}

/**
 * The standard normal distribution function, from the complementary error function's rational
 * approximation (Abramowitz & Stegun 7.1.26, absolute error below 1.5e-7): ample for ranking
 * probabilities, not for far tails.
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const polynomial =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const tail = 0.5 * polynomial * Math.exp(-z * z);
  return x >= 0 ? 1 - tail : tail;
}
