/**
 * Bradley-Terry ratings for a leaderboard from pairwise debate results, with bootstrap intervals.
 * P(i beats j) = s_i / (s_i + s_j); strengths are reported on an Elo-like scale centred on 1500.
 */
import { fitLogStrengths, type PairwiseTotals } from './bradley-terry-fit.js';
import { sortedPercentile } from './percentile.js';
import { createRandomStream } from './random-stream.js';

/** One head-to-head result between players `a` and `b`. */
export interface Match {
  a: string;
  b: string;
  winner: 'a' | 'b' | 'tie';
  /**
   * The debate the match comes from. When every match names one, the bootstrap resamples debates
   * (each drawn debate brings all its matches), not matches: the matches of one debate are not
   * independent of each other.
   */
  cluster?: string;
}

/** Tuning for {@link bradleyTerry}. */
export interface BradleyTerryOptions {
  /** Number of bootstrap refits for the interval; 0 collapses the interval to the rating. Default 200. */
  bootstrap?: number;
  /** Seed of the resampling generator. Default 1. */
  seed?: number;
  /** Two-sided confidence level of the interval. Default 0.95. */
  level?: number;
}

/** A player's fitted rating, its bootstrap interval and raw record. */
export interface PlayerRating {
  player: string;
  rating: number;
  low: number;
  high: number;
  wins: number;
  losses: number;
  ties: number;
  matches: number;
}

const MEAN_RATING = 1500;
const RATING_SCALE = 400;

// A match with players replaced by indices and the result scored from `first`'s side.
interface EncodedMatch {
  first: number;
  second: number;
  firstScore: number;
}

/** Bradley-Terry ratings (MM fit, ties as half wins) with seeded bootstrap intervals, best first. */
export function bradleyTerry(matches: Match[], options: BradleyTerryOptions = {}): PlayerRating[] {
  const bootstrap = options.bootstrap ?? 200;
  const seed = options.seed ?? 1;
  const level = options.level ?? 0.95;
  if (!(Number.isInteger(bootstrap) && bootstrap >= 0)) {
    throw new RangeError(`bootstrap must be a non-negative integer, got ${bootstrap}`);
  }
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`);
  if (!(level > 0 && level < 1)) {
    throw new RangeError(`level must lie strictly between 0 and 1, got ${level}`);
  }
  if (matches.length === 0) return [];

  // Sorted names make the fit independent of the order in which players first appear.
  const players = [...new Set(matches.flatMap((match) => [match.a, match.b]))].sort(compareText);
  const indexOf = new Map(players.map((player, index) => [player, index]));
  // A self-pairing says nothing about relative strength: its player is listed (at 1500 if that is all
  // they played) but the game is neither fitted nor counted in the record.
  const kept = matches.filter((match) => match.a !== match.b);
  const encoded = kept.map((match) => encodeMatch(match, indexOf));
  const clusters = clustersOf(kept);

  const fitted = fitLogStrengths(aggregate(encoded, allIndices(encoded.length), players.length));
  const ratings = toRatings(fitted);
  const samples = players.map(() => new Float64Array(bootstrap));
  const random = createRandomStream(seed);
  for (let round = 0; round < bootstrap; round++) {
    const drawn = clusters ? drawClusters(clusters, random) : new Uint32Array(encoded.length);
    if (!clusters) for (let k = 0; k < drawn.length; k++) drawn[k] = Math.floor(random() * encoded.length);
    // Every player stays in each refit; one missing from a resample falls back to the prior (average),
    // which is exactly what the estimator would report from such data.
    // Starting from the full-data fit, which every resample is close to, saves most of the iterations.
    const refit = toRatings(fitLogStrengths(aggregate(encoded, drawn, players.length), fitted));
    refit.forEach((value, player) => {
      const sample = samples[player];
      if (sample !== undefined) sample[round] = value;
    });
  }

  const tail = (1 - level) / 2;
  const records = countRecords(encoded, players.length);
  const result = players.map((player, index): PlayerRating => {
    const rating = ratings[index] ?? MEAN_RATING;
    const sample = (samples[index] ?? new Float64Array(0)).sort();
    const record = records[index] ?? { wins: 0, losses: 0, ties: 0, matches: 0 };
    if (sample.length === 0) return { player, rating, low: rating, high: rating, ...record };
    // A percentile interval can miss the point estimate under heavy skew; widening it to include the
    // rating keeps the leaderboard from showing a rating outside its own interval.
    const low = Math.min(sortedPercentile(sample, tail), rating);
    const high = Math.max(sortedPercentile(sample, 1 - tail), rating);
    return { player, rating, low, high, ...record };
  });
  // Ratings equal up to rounding noise are ordered by name, so symmetric players list predictably.
  return result.sort((x, y) => {
    const gap = y.rating - x.rating;
    return Math.abs(gap) > 1e-9 ? gap : compareText(x.player, y.player);
  });
}

/** The matches' indices grouped by debate, when every match names its debate; null otherwise. */
function clustersOf(matches: readonly Match[]): number[][] | null {
  if (matches.length === 0 || matches.some((match) => match.cluster === undefined)) return null;
  const groups = new Map<string, number[]>();
  matches.forEach((match, at) => {
    const key = match.cluster as string;
    groups.set(key, [...(groups.get(key) ?? []), at]);
  });
  return [...groups.keys()].sort(compareText).map((key) => groups.get(key) ?? []);
}

/** One bootstrap resample of debates: as many debates as there are, drawn with replacement. */
function drawClusters(clusters: readonly number[][], random: () => number): Uint32Array {
  const drawn: number[] = [];
  for (let k = 0; k < clusters.length; k++) {
    drawn.push(...(clusters[Math.floor(random() * clusters.length)] ?? []));
  }
  return Uint32Array.from(drawn);
}

function encodeMatch(match: Match, indexOf: ReadonlyMap<string, number>): EncodedMatch {
  const first = indexOf.get(match.a);
  const second = indexOf.get(match.b);
  if (first === undefined || second === undefined) throw new RangeError('unknown player');
  switch (match.winner) {
    case 'a':
      return { first, second, firstScore: 1 };
    case 'b':
      return { first, second, firstScore: 0 };
    case 'tie':
      return { first, second, firstScore: 0.5 };
    default:
      throw new RangeError(`winner must be 'a', 'b' or 'tie', got ${String(match.winner)}`);
  }
}

function allIndices(count: number): Uint32Array {
  const indices = new Uint32Array(count);
  for (let k = 0; k < count; k++) indices[k] = k;
  return indices;
}

// Per-player points and per-pair game counts for the matches picked (repeats allowed).
function aggregate(
  matches: readonly EncodedMatch[],
  picked: Uint32Array,
  playerCount: number,
): PairwiseTotals {
  const scores = new Float64Array(playerCount);
  const pairGames = new Map<number, number>();
  for (const k of picked) {
    const match = matches[k];
    if (match === undefined) continue;
    scores[match.first] = (scores[match.first] ?? 0) + match.firstScore;
    scores[match.second] = (scores[match.second] ?? 0) + 1 - match.firstScore;
    const key = Math.min(match.first, match.second) * playerCount + Math.max(match.first, match.second);
    pairGames.set(key, (pairGames.get(key) ?? 0) + 1);
  }
  const pairs = [...pairGames].map(([key, games]) => ({
    first: Math.floor(key / playerCount),
    second: key % playerCount,
    games,
  }));
  return { playerCount, scores, pairs };
}

/** Elo-like scale: 400 points per factor of ten in strength, shifted so the players average 1500. */
export function toRatings(logStrengths: Float64Array): Float64Array {
  const ratings = logStrengths.map((theta) => (RATING_SCALE * theta) / Math.LN10);
  let total = 0;
  for (const rating of ratings) total += rating;
  const shift = MEAN_RATING - total / ratings.length;
  return ratings.map((rating) => rating + shift);
}

function countRecords(
  matches: readonly EncodedMatch[],
  playerCount: number,
): Array<Pick<PlayerRating, 'wins' | 'losses' | 'ties' | 'matches'>> {
  const records = Array.from({ length: playerCount }, () => ({ wins: 0, losses: 0, ties: 0, matches: 0 }));
  for (const { first, second, firstScore } of matches) {
    const a = records[first];
    const b = records[second];
    if (a === undefined || b === undefined) continue;
    a.matches++;
    b.matches++;
    if (firstScore === 1) {
      a.wins++;
      b.losses++;
    } else if (firstScore === 0) {
      a.losses++;
      b.wins++;
    } else {
      a.ties++;
      b.ties++;
    }
  }
  return records;
}

// Code-unit order, so results do not depend on the host locale.
function compareText(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
