import { describe, expect, it } from 'vitest';
import { bradleyTerry } from '../../src/analytics/bradley-terry.js';
import { kendallTauB } from '../../src/analytics/rank-correlation.js';
import type { TournamentMatch } from '../../src/analytics/tournament-match.js';
import { computeStandings } from '../../src/analytics/tournament-standings.js';
import { roundRobinPlan } from '../../src/tournament/round-robin.js';
import { modelsOf, playDebate, type SyntheticWorld, trueRatings } from '../helpers/synthetic-tournament.js';

const roundRobin = (world: SyntheticWorld, motions: number): TournamentMatch[] =>
  roundRobinPlan(
    modelsOf(world),
    Array.from({ length: motions }, (_, at) => `${at + 1}`),
  ).map((debate) => playDebate(world, debate));

const ratingOf = (standings: ReturnType<typeof computeStandings>, model: string) =>
  standings.models.find((row) => row.model === model);

describe('computeStandings', () => {
  it('gives the leaderboard’s Bradley-Terry ratings and records, debates with no result counted apart', () => {
    const world: SyntheticWorld = { strengths: { a: 0.5, b: 0, c: -0.5 }, seed: 7 };
    const matches = roundRobin(world, 3);
    const failed: TournamentMatch = { ...(matches[0] as TournamentMatch), runId: 'failed', score: null };
    const standings = computeStandings([...matches, failed], { resamples: 50 });
    const reference = bradleyTerry(
      matches.map((match) => ({
        a: match.first,
        b: match.second,
        winner: match.score === 1 ? 'a' : match.score === 0 ? 'b' : 'tie',
      })),
      { bootstrap: 0 },
    );
    for (const row of reference) {
      const standing = ratingOf(standings, row.player);
      expect(standing?.rating?.value).toBeCloseTo(row.rating, 6);
      expect([standing?.wins, standing?.losses, standing?.ties]).toEqual([row.wins, row.losses, row.ties]);
    }
    expect(standings.debates).toBe(matches.length + 1);
    expect(standings.rated).toBe(matches.length);
    expect(standings.noResult).toBe(1);
    const seated = [failed.first, failed.second];
    for (const row of standings.models) {
      expect(row.noResult).toBe(seated.includes(row.model) ? 1 : 0);
      expect(row.debates).toBe(12 + row.noResult);
    }
  });

  it('recovers the true order of eight models from a round-robin on six motions (336 debates)', () => {
    // Eight models 0.3 log-odds (about 52 rating points) apart: neighbours are hard to tell apart in
    // one tournament, the order as a whole is not.
    const taus: number[] = [];
    for (let seed = 1; seed <= 5; seed++) {
      const names = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8'];
      const world: SyntheticWorld = {
        strengths: Object.fromEntries(names.map((name, at) => [name, 1.05 - 0.3 * at])),
        seed,
      };
      const standings = computeStandings(roundRobin(world, 6), { resamples: 20, seed });
      const truth = names.map((name) => world.strengths[name] ?? 0);
      const fitted = names.map((name) => ratingOf(standings, name)?.rating?.value ?? 0);
      taus.push(kendallTauB(truth, fitted) ?? 0);
    }
    const mean = taus.reduce((sum, tau) => sum + tau, 0) / taus.length;
    expect(mean).toBeGreaterThanOrEqual(0.85);
    expect(Math.min(...taus)).toBeGreaterThanOrEqual(0.7);
  });
});

describe('computeStandings intervals', () => {
  // 120 simulated round-robins of four models (true strengths 0.6, 0.2, -0.2, -0.6 log-odds) on four
  // motions (48 debates each): 480 intervals. At a true coverage of 0.95 the share covered has a
  // standard error of at most 0.02 even if the four intervals of one tournament moved together
  // (120 independent tournaments), so 0.88-0.99 allows more than three standard errors below and
  // catches intervals that are far too wide above. 200 resamples (not the default 1000) keep it to
  // seconds; percentile ends from 200 resamples are a little noisier, not biased.
  const coverage = (level: number, tournaments: number) => {
    let covered = 0;
    let styleCovered = 0;
    let total = 0;
    for (let seed = 1; seed <= tournaments; seed++) {
      const world: SyntheticWorld = { strengths: { a: 0.6, b: 0.2, c: -0.2, d: -0.6 }, seed };
      const standings = computeStandings(roundRobin(world, 4), {
        resamples: 200,
        seed,
        level,
        robustness: false,
      });
      const truth = trueRatings(world);
      for (const row of standings.models) {
        const value = truth[row.model] ?? Number.NaN;
        total += 1;
        if (row.rating && row.rating.low <= value && value <= row.rating.high) covered += 1;
        if (row.styleControlled && row.styleControlled.low <= value && value <= row.styleControlled.high) {
          styleCovered += 1;
        }
      }
    }
    return { raw: covered / total, styleControlled: styleCovered / total };
  };

  it('cover the true ratings at about their nominal 95%', () => {
    const { raw, styleControlled } = coverage(0.95, 120);
    expect(raw).toBeGreaterThanOrEqual(0.88);
    expect(raw).toBeLessThanOrEqual(0.99);
    expect(styleControlled).toBeGreaterThanOrEqual(0.88);
    expect(styleControlled).toBeLessThanOrEqual(0.99);
  });

  it('cover less at a lower level: the check above can fail', () => {
    // 40 tournaments, 160 intervals: at a true coverage of 0.5 the share lies within 0.3-0.7 with
    // room to spare, and far below the 0.88 the check above asks for.
    const { raw } = coverage(0.5, 40);
    expect(raw).toBeGreaterThan(0.3);
    expect(raw).toBeLessThan(0.7);
  });
});

describe('computeStandings style control', () => {
  // Four models of equal strength; "verbose" speaks twice as long as the others (each debate's
  // length strays by up to a factor of two from a model's habit), and the judges reward length:
  // +1.5 log-odds per doubling of the length ratio, whoever speaks. 4 models, 12 motions: 144
  // debates, seeds 1-3.
  const strengths = { verbose: 0, plain: 0, terse: 0, steady: 0 };
  const tokens = { verbose: 600, plain: 300, terse: 300, steady: 300 };

  it('removes a planted length advantage that the raw rating credits to the long-speaking model', () => {
    for (const seed of [1, 2, 3]) {
      const world: SyntheticWorld = { strengths, tokens, lengthEdge: 1.5, lengthSpread: 1.4, seed };
      const standings = computeStandings(roundRobin(world, 12), { resamples: 300, seed, robustness: false });
      const verbose = ratingOf(standings, 'verbose');
      const others = standings.models.filter((row) => row.model !== 'verbose');
      // Raw: the long speaker is rated apart, above every other model.
      for (const other of others) {
        expect(verbose?.rating?.low ?? 0).toBeGreaterThan(other.rating?.high ?? Number.POSITIVE_INFINITY);
      }
      // Style-controlled: its interval overlaps every other model's, its rating near theirs.
      for (const other of others) {
        expect(verbose?.styleControlled?.low ?? 0).toBeLessThanOrEqual(other.styleControlled?.high ?? 0);
      }
      const othersMean =
        others.reduce((sum, row) => sum + (row.styleControlled?.value ?? 0), 0) / others.length;
      const rawMean = others.reduce((sum, row) => sum + (row.rating?.value ?? 0), 0) / others.length;
      expect((verbose?.rating?.value ?? 0) - rawMean).toBeGreaterThan(120);
      expect(Math.abs((verbose?.styleControlled?.value ?? 0) - othersMean)).toBeLessThan(80);
      // The length coefficient is positive (its interval clear of zero) and near the planted 1.5.
      const length = standings.styleCoefficients.find((coefficient) => coefficient.name === 'length');
      expect(length?.low ?? 0).toBeGreaterThan(0);
      expect(length?.value ?? 0).toBeGreaterThan(0.9);
      expect(length?.value ?? 0).toBeLessThan(2.2);
    }
  });

  it('leaves the ratings as they are when the sides never differ in style', () => {
    const world: SyntheticWorld = { strengths: { a: 0.5, b: 0, c: -0.5 }, seed: 4 };
    const matches = roundRobin(world, 4).map((match) => ({
      ...match,
      style: {
        first: { tokensPerStatement: 300, markdownPerStatement: 2 },
        second: { tokensPerStatement: 300, markdownPerStatement: 2 },
      },
    }));
    const standings = computeStandings(matches, { resamples: 0 });
    for (const row of standings.models) {
      expect(row.styleControlled?.value).toBeCloseTo(row.rating?.value ?? 0, 6);
    }
    expect(standings.styleCoefficients.map((coefficient) => coefficient.value)).toEqual([0, 0]);
  });
});
