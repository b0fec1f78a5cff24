import { describe, expect, it } from 'vitest';
import { bradleyTerry } from '../../src/analytics/bradley-terry.js';
import { kendallTauB } from '../../src/analytics/rank-correlation.js';
import type { TournamentMatch } from '../../src/analytics/tournament-match.js';
import { computeStandings } from '../../src/analytics/tournament-standings.js';
import { roundRobinPlan } from '../../src/tournament/round-robin.js';
import { modelsOf, playDebate, type SyntheticWorld } from '../helpers/synthetic-tournament.js';

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
