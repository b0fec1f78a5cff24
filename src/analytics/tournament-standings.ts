/**
 * The standings of a tournament from its finished debates: per model the Bradley-Terry rating with
 * a bootstrap interval over debates, the style-controlled rating beside it with the style
 * coefficients, the record; separability; per judge model the order-flip rate and agreement with
 * the panel; and the robustness line. A plain object throughout, so it goes to JSON as it is.
 *
 * A debate is one game: its result for the first side (1, 0.5 for a tie, 0). Debates with no result
 * (score null) count as played, apart, and are left out of every fit. Every interval is a
 * percentile bootstrap that resamples whole debates, as many as there are, with replacement; an
 * interval is widened to include its own estimate when skew puts it outside (as the leaderboard does).
 */
import { bradleyTerry, type Match, toRatings } from './bradley-terry.js';
import { bootstrapVectorOverDebates, DEBATE_RESAMPLES } from './debate-bootstrap.js';
import { type JudgeConsistency, judgeConsistency } from './judge-order-flips.js';
import { type CovariateGame, fitStyleControlled } from './style-controlled-fit.js';
import { STYLE_COVARIATES, type StyleCovariate, styleDifferences } from './style-covariates.js';
import { type RatedDebate, type TopRobustness, topModelRobustness } from './top-model-robustness.js';
import type { TournamentMatch } from './tournament-match.js';

export type { JudgeConsistency } from './judge-order-flips.js';
export type { OutcomeChange, TopRobustness } from './top-model-robustness.js';

/** How the standings are worked out. */
export interface StandingsOptions {
  /** Seed of the bootstrap's resampling. Default 1. */
  seed?: number;
  /** Bootstrap resamples of the debates; 0 collapses every interval to its estimate. Default 1000. */
  resamples?: number;
  /** Two-sided level of every interval. Default 0.95. */
  level?: number;
  /**
   * Work out the robustness line, which refits the model many times; false leaves it null (for a
   * progress display refreshed after every debate, say). Default true.
   */
  robustness?: boolean;
}

/** An estimate with its bootstrap interval. */
export interface Estimate {
  value: number;
  low: number;
  high: number;
}

/** One model's line of the standings. */
export interface ModelStanding {
  model: string;
  /** Bradley-Terry rating (Elo-like scale, models average 1500); null without a rated debate. */
  rating: Estimate | null;
  /** The same with the style differences as covariates; null without a rated debate. */
  styleControlled: Estimate | null;
  wins: number;
  losses: number;
  ties: number;
  /** Debates that named no winner (score null): played, not rated. */
  noResult: number;
  /** Every debate the model sat in, with or without a result. */
  debates: number;
}

/** A style covariate's fitted coefficient (log-odds per unit) with its interval. */
export interface StyleCoefficient extends StyleCovariate, Estimate {}

/** Share of model pairs whose intervals do not overlap. */
export interface Separability {
  /** Pairs of rated models. */
  pairs: number;
  separated: number;
  /**
   * separated / pairs; null with fewer than two rated models, without resamples, or when a model
   * has fewer than {@link FEWEST_DEBATES_FOR_INTERVALS} rated debates.
   */
  share: number | null;
  styleControlledSeparated: number;
  styleControlledShare: number | null;
}

/** Everything the tournament's standings show. */
export interface TournamentStandings {
  level: number;
  resamples: number;
  seed: number;
  /** Debates given, with a result (rated) and without. */
  debates: number;
  rated: number;
  noResult: number;
  /** Best first by rating; models with no rated debate last, by name. */
  models: ModelStanding[];
  styleCoefficients: StyleCoefficient[];
  separability: Separability;
  judges: JudgeConsistency[];
  robustness: TopRobustness | null;
  /** True when the tournament cannot tell any two models apart (or has fewer than two rated). */
  tooSmall: boolean;
  /** Plain sentences for the reader, such as why the tournament is too small. */
  warnings: string[];
}

const compareText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/**
 * Rated debates a model needs for its intervals to mean anything: a bootstrap of a handful of
 * debates hardly varies (of one, not at all), and its intervals would look far surer than they are.
 * Below this for any model, separability is not given and the standings say the tournament is too small.
 */
export const FEWEST_DEBATES_FOR_INTERVALS = 5;

/** The standings of `matches` (see the file's comment for every definition). */
export function computeStandings(
  matches: readonly TournamentMatch[],
  options: StandingsOptions = {},
): TournamentStandings {
  const seed = options.seed ?? 1;
  const resamples = options.resamples ?? DEBATE_RESAMPLES;
  const level = options.level ?? 0.95;
  if (!(Number.isInteger(resamples) && resamples >= 0)) {
    throw new RangeError(`resamples must be a non-negative integer, got ${resamples}`);
  }
  if (!(level > 0 && level < 1))
    throw new RangeError(`level must lie strictly between 0 and 1, got ${level}`);

  const models = [...new Set(matches.flatMap((match) => [match.first, match.second]))].sort(compareText);
  // A self-pairing says nothing about relative strength; like the leaderboard, it is not rated.
  const rated = matches.filter((match) => match.score !== null && match.first !== match.second);
  const players = [...new Set(rated.flatMap((match) => [match.first, match.second]))].sort(compareText);
  const indexOf = new Map(players.map((player, index) => [player, index]));

  const plain = bradleyTerry(
    rated.map(
      (match): Match => ({
        a: match.first,
        b: match.second,
        winner: match.score === 1 ? 'a' : match.score === 0 ? 'b' : 'tie',
        cluster: match.runId,
      }),
    ),
    // The leaderboard's fit, for the ratings and records; the intervals come from the bootstrap
    // below, which refits raw and style-controlled ratings on the same resamples.
    { bootstrap: 0 },
  );
  const plainOf = new Map(plain.map((row) => [row.player, row]));

  const games = rated.map(
    (match): CovariateGame => ({
      first: indexOf.get(match.first) ?? 0,
      second: indexOf.get(match.second) ?? 0,
      score: match.score ?? 0.5,
      covariates: styleDifferences(match.style),
    }),
  );
  const plainRatings = Float64Array.from(players, (player) => plainOf.get(player)?.rating ?? 1500);
  const estimates = bootstrapEstimates(games, plainRatings, { seed, resamples, level });

  const standings = models.map((model): ModelStanding => {
    const row = plainOf.get(model);
    const at = indexOf.get(model);
    const noResult = matches.filter(
      (match) => match.score === null && (match.first === model || match.second === model),
    ).length;
    const debates = matches.filter((match) => match.first === model || match.second === model).length;
    return {
      model,
      rating: at === undefined ? null : (estimates.ratings[at] ?? null),
      styleControlled: at === undefined ? null : (estimates.styleControlled[at] ?? null),
      wins: row?.wins ?? 0,
      losses: row?.losses ?? 0,
      ties: row?.ties ?? 0,
      noResult,
      debates,
    };
  });
  standings.sort((x, y) => {
    if (x.rating === null || y.rating === null) {
      return x.rating === y.rating ? compareText(x.model, y.model) : x.rating === null ? 1 : -1;
    }
    // Ratings within a millionth of a point are equal, as the robustness line takes them.
    const gap = y.rating.value - x.rating.value;
    return Math.abs(gap) > 1e-6 ? gap : compareText(x.model, y.model);
  });

  const fewest = Math.min(
    ...standings.map((row) => (row.rating === null ? Infinity : row.wins + row.losses + row.ties)),
  );
  const separability = separabilityOf(standings, resamples, fewest >= FEWEST_DEBATES_FOR_INTERVALS);
  const robustness =
    options.robustness === false
      ? null
      : topModelRobustness(
          players,
          rated.map(
            (match): RatedDebate => ({
              first: indexOf.get(match.first) ?? 0,
              second: indexOf.get(match.second) ?? 0,
              score: match.score ?? 0.5,
              runId: match.runId,
            }),
          ),
        );
  const warnings: string[] = [];
  let tooSmall = false;
  if (players.length < 2) {
    tooSmall = true;
    warnings.push('Fewer than two models have a debate with a result: there is no ranking to show.');
  } else if (fewest < FEWEST_DEBATES_FOR_INTERVALS) {
    tooSmall = true;
    warnings.push(
      `Too small for intervals: a model has only ${fewest} debate${fewest === 1 ? '' : 's'} with a result, and intervals from fewer than ${FEWEST_DEBATES_FOR_INTERVALS} look far surer than they are, so separability is not given.`,
    );
  } else if (separability.share === 0) {
    tooSmall = true;
    warnings.push(
      `Too small to separate the models: every pair's ${Math.round(level * 100)}% intervals overlap, so no model is shown to be better than another. More motions or more debates narrow the intervals.`,
    );
  }
  const noResult = matches.length - matches.filter((match) => match.score !== null).length;
  if (noResult > 0) {
    warnings.push(
      `${noResult} of ${matches.length} debates named no winner and are left out of the ratings.`,
    );
  }
  return {
    level,
    resamples,
    seed,
    debates: matches.length,
    rated: rated.length,
    noResult,
    models: standings,
    styleCoefficients: estimates.coefficients,
    separability,
    judges: judgeConsistency(matches),
    robustness,
    tooSmall,
    warnings,
  };
}

/**
 * Plain and style-controlled ratings (by player index) and the style coefficients, each with its
 * percentile interval from one bootstrap over debates: every resample refits both models. The plain
 * refits read the resample's games added up per pairing, which is the same objective as the
 * leaderboard's fit (bradley-terry-fit.ts), solved by Newton's method for speed.
 */
function bootstrapEstimates(
  games: readonly CovariateGame[],
  plainRatings: Float64Array,
  options: { seed: number; resamples: number; level: number },
): { ratings: Estimate[]; styleControlled: Estimate[]; coefficients: StyleCoefficient[] } {
  const playerCount = plainRatings.length;
  const covariateCount = STYLE_COVARIATES.length;
  if (playerCount === 0) {
    return {
      ratings: [],
      styleControlled: [],
      coefficients: STYLE_COVARIATES.map((covariate) => ({ ...covariate, value: 0, low: 0, high: 0 })),
    };
  }
  const plainStart = fitStyleControlled(byPairing(games), playerCount, 0);
  const styledFit = fitStyleControlled(games, playerCount, covariateCount);
  const estimate = [...plainRatings, ...toRatings(styledFit.logStrengths), ...styledFit.coefficients];
  const bands = bootstrapVectorOverDebates(
    games,
    (sample) => {
      const plain = fitStyleControlled(byPairing(sample), playerCount, 0, plainStart);
      const styled = fitStyleControlled(sample, playerCount, covariateCount, styledFit);
      return [...toRatings(plain.logStrengths), ...toRatings(styled.logStrengths), ...styled.coefficients];
    },
    options,
  );
  const withBand = (at: number): Estimate => {
    const value = estimate[at] ?? 0;
    const band = bands[at];
    if (band === undefined || Number.isNaN(band.low)) return { value, low: value, high: value };
    // As the leaderboard does: an interval skewed past its estimate is widened to include it.
    return { value, low: Math.min(band.low, value), high: Math.max(band.high, value) };
  };
  return {
    ratings: Array.from({ length: playerCount }, (_, at) => withBand(at)),
    styleControlled: Array.from({ length: playerCount }, (_, at) => withBand(playerCount + at)),
    coefficients: STYLE_COVARIATES.map((covariate, c) => ({
      ...covariate,
      ...withBand(2 * playerCount + c),
    })),
  };
}

/** The games added up per pairing (model a < model b): one row with a's mean result and the count. */
function byPairing(games: readonly CovariateGame[]): CovariateGame[] {
  const rows = new Map<string, { first: number; second: number; total: number; count: number }>();
  for (const game of games) {
    const flipped = game.first > game.second;
    const first = flipped ? game.second : game.first;
    const second = flipped ? game.first : game.second;
    const key = `${first},${second}`;
    const row = rows.get(key) ?? { first, second, total: 0, count: 0 };
    row.total += flipped ? 1 - game.score : game.score;
    row.count += 1;
    rows.set(key, row);
  }
  return [...rows.values()].map((row) => ({
    first: row.first,
    second: row.second,
    score: row.total / row.count,
    weight: row.count,
    covariates: [],
  }));
}

function separabilityOf(
  standings: readonly ModelStanding[],
  resamples: number,
  enoughDebates: boolean,
): Separability {
  let pairs = 0;
  let separated = 0;
  let styleSeparated = 0;
  const apart = (x: Estimate, y: Estimate) => x.low > y.high || y.low > x.high;
  for (let i = 0; i < standings.length; i++) {
    for (let j = i + 1; j < standings.length; j++) {
      const x = standings[i];
      const y = standings[j];
      if (!x?.rating || !y?.rating || !x.styleControlled || !y.styleControlled) continue;
      pairs += 1;
      if (apart(x.rating, y.rating)) separated += 1;
      if (apart(x.styleControlled, y.styleControlled)) styleSeparated += 1;
    }
  }
  const defined = pairs > 0 && resamples > 0 && enoughDebates;
  return {
    pairs,
    separated,
    share: defined ? separated / pairs : null,
    styleControlledSeparated: styleSeparated,
    styleControlledShare: defined ? styleSeparated / pairs : null,
  };
}
