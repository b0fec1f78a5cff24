/**
 * A synthetic tournament world with a known true order, for testing the standings and the
 * schedule without running a debate: each model has a true strength (natural log-odds), each debate's
 * outcome is drawn from the Bradley-Terry probability of the two strengths (plus, when asked, a
 * first-side edge and an edge for speaking longer), and its style and judge readings are drawn too.
 * Every debate's draw is keyed by its models, side order and motion, so the same debate comes out the
 * same whichever schedule asks for it: a round-robin and an adaptive schedule see the same world.
 */
import { bradleyTerry } from '../../src/analytics/bradley-terry.js';
import { createRandomStream } from '../../src/analytics/random-stream.js';
import { kendallTauB } from '../../src/analytics/rank-correlation.js';
import type { JudgeReading, SideChoice, TournamentMatch } from '../../src/analytics/tournament-match.js';
import { nextAdaptiveBatch } from '../../src/tournament/adaptive-schedule.js';
import { roundRobinPlan, type ScheduledDebate } from '../../src/tournament/round-robin.js';

export interface SyntheticWorld {
  /** True strength per model, natural log-odds (P(a beats b) = logistic(a − b)). */
  strengths: Readonly<Record<string, number>>;
  seed: number;
  /** Share of debates that end tied. Default 0.08. */
  tieRate?: number;
  /** Log-odds edge of the first side. Default 0. */
  firstSideEdge?: number;
  /** Mean output tokens per statement per model. Default 300 for every model. */
  tokens?: Readonly<Record<string, number>>;
  /** Log-odds edge per doubling of the first side's length over the second's. Default 0. */
  lengthEdge?: number;
  /**
   * How far one debate's length strays from the model's habit: a factor of e^(±spread/2), drawn
   * uniformly on the log scale. Default 0.5 (about ±25%).
   */
  lengthSpread?: number;
  /** Judge models reading each debate. Default none. */
  judges?: readonly string[];
  /** Share of a judge's readings that follow the order shown rather than the debate. Default 0.2. */
  positionalReadings?: number;
}

/** The models of the world, in the order given. */
export const modelsOf = (world: SyntheticWorld) => Object.keys(world.strengths);

/** The true ratings on the standings' scale: 400 log10 strength, centred on 1500. */
export function trueRatings(world: SyntheticWorld): Record<string, number> {
  const models = modelsOf(world);
  const elo = models.map((model) => (400 * (world.strengths[model] ?? 0)) / Math.LN10);
  const mean = elo.reduce((sum, value) => sum + value, 0) / elo.length;
  return Object.fromEntries(models.map((model, at) => [model, (elo[at] ?? 0) - mean + 1500]));
}

function keyedRandom(world: SyntheticWorld, debate: ScheduledDebate): () => number {
  let hash = 0x811c9dc5;
  for (const character of `${world.seed}|${debate.first}|${debate.second}|${debate.motionId}`) {
    hash ^= character.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return createRandomStream(hash);
}

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/** The finished debate the world gives for `debate`. */
export function playDebate(world: SyntheticWorld, debate: ScheduledDebate): TournamentMatch {
  const random = keyedRandom(world, debate);
  const meanTokens = (model: string) => world.tokens?.[model] ?? 300;
  const spread = world.lengthSpread ?? 0.5;
  const firstTokens = meanTokens(debate.first) * Math.exp((random() - 0.5) * spread);
  const secondTokens = meanTokens(debate.second) * Math.exp((random() - 0.5) * spread);
  const edge =
    (world.strengths[debate.first] ?? 0) -
    (world.strengths[debate.second] ?? 0) +
    (world.firstSideEdge ?? 0) +
    (world.lengthEdge ?? 0) * Math.log2(firstTokens / secondTokens);
  const tie = random() < (world.tieRate ?? 0.08);
  const score: 1 | 0.5 | 0 = tie ? 0.5 : random() < logistic(edge) ? 1 : 0;
  const outcome: SideChoice = score === 1 ? 'first' : score === 0 ? 'second' : 'tie';
  const readings: JudgeReading[] = (world.judges ?? []).map((judgeModel) => {
    const positional = random() < (world.positionalReadings ?? 0.2);
    // A positional judge picks the side shown first both times: the first side in order, the
    // second side when swapped.
    return positional
      ? { judgeModel, inOrder: 'first', swapped: 'second' }
      : { judgeModel, inOrder: outcome, swapped: outcome };
  });
  return {
    runId: `run-${debate.motionId}-${debate.first}-${debate.second}`,
    motionId: debate.motionId,
    first: debate.first,
    second: debate.second,
    score,
    style: {
      first: { tokensPerStatement: firstTokens, markdownPerStatement: 2 + random() },
      second: { tokensPerStatement: secondTokens, markdownPerStatement: 2 + random() },
    },
    readings,
  };
}

/** Plain Bradley-Terry ratings of the models (the standings' fit, no bootstrap), in `models` order. */
export function fittedRatings(models: readonly string[], matches: readonly TournamentMatch[]): number[] {
  const rated = bradleyTerry(
    matches
      .filter((match) => match.score !== null)
      .map((match) => ({
        a: match.first,
        b: match.second,
        winner: match.score === 1 ? ('a' as const) : match.score === 0 ? ('b' as const) : ('tie' as const),
      })),
    { bootstrap: 0 },
  );
  const byModel = new Map(rated.map((row) => [row.player, row.rating]));
  return models.map((model) => byModel.get(model) ?? 1500);
}

/** Where a schedule stood after each batch: debates played and Kendall's tau-b against a reference. */
export interface ScheduleStep {
  debates: number;
  tau: number;
}

/**
 * The debates after which a schedule's order matched the reference (tau-b = 1) and kept matching it
 * to the end; null when it never settled.
 */
export function settledAt(steps: readonly ScheduleStep[]): number | null {
  let settled: number | null = null;
  for (const step of steps) {
    if (step.tau >= 1 - 1e-12) settled ??= step.debates;
    else settled = null;
  }
  return settled;
}

/** How an adaptive tournament goes in `world`: its order against `reference` after every batch. */
export function adaptiveSteps(
  world: SyntheticWorld,
  motionIds: readonly string[],
  reference: readonly number[],
  options: { pairings: number; seed: number; budget?: number },
): ScheduleStep[] {
  const models = modelsOf(world);
  const results: TournamentMatch[] = [];
  const steps: ScheduleStep[] = [];
  const budget = options.budget ?? Number.POSITIVE_INFINITY;
  while (results.length < budget) {
    const batch = nextAdaptiveBatch({
      models,
      motionIds,
      results,
      pairings: options.pairings,
      seed: options.seed,
    });
    if (batch.length === 0) break;
    results.push(...batch.map((debate) => playDebate(world, debate)));
    steps.push({ debates: results.length, tau: kendallTauB(fittedRatings(models, results), reference) ?? 0 });
  }
  return steps;
}

/** The same for the round-robin played in its plan's order, `pairings` pairings at a time. */
export function roundRobinSteps(
  world: SyntheticWorld,
  motionIds: readonly string[],
  reference: readonly number[],
  pairings: number,
): ScheduleStep[] {
  const models = modelsOf(world);
  const plan = roundRobinPlan(models, motionIds);
  const steps: ScheduleStep[] = [];
  for (let end = 2 * pairings; end < plan.length + 2 * pairings; end += 2 * pairings) {
    const played = plan.slice(0, Math.min(end, plan.length)).map((debate) => playDebate(world, debate));
    steps.push({ debates: played.length, tau: kendallTauB(fittedRatings(models, played), reference) ?? 0 });
  }
  return steps;
}

/**
 * How an adaptive tournament goes when each next pairing is chosen as slots free (rolling-schedule.ts):
 * the pairing that holds debates P + 1 and P + 2 is chosen from the results of debates 1 to
 * P + 2 − lag, the debates ending in the order they were planned. Its order against `reference`
 * after every `every` debates (and at the end), to compare with `adaptiveSteps` at the same pace.
 */
export function rollingSteps(
  world: SyntheticWorld,
  motionIds: readonly string[],
  reference: readonly number[],
  options: { lag: number; seed: number; every: number },
): ScheduleStep[] {
  const models = modelsOf(world);
  const planned: ScheduledDebate[] = nextAdaptiveBatch({
    models,
    motionIds,
    results: [],
    pairings: (models.length * (models.length - 1)) / 2,
    seed: options.seed,
  });
  const played = (count: number) =>
    planned.slice(0, Math.max(0, count)).map((debate) => playDebate(world, debate));
  for (;;) {
    const next = nextAdaptiveBatch({
      models,
      motionIds,
      results: played(planned.length + 2 - options.lag),
      scheduled: planned,
      pairings: 1,
      seed: options.seed,
    });
    if (next.length === 0) break;
    planned.push(...next);
  }
  const steps: ScheduleStep[] = [];
  for (let count = options.every; count < planned.length + options.every; count += options.every) {
    const results = played(Math.min(count, planned.length));
    steps.push({ debates: results.length, tau: kendallTauB(fittedRatings(models, results), reference) ?? 0 });
  }
  return steps;
}
