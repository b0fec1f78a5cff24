/**
 * A tournament's plan: what it was asked (models, motions, format, rounds, seed, schedule, judges)
 * and the matches drawn from it. Every pairing of two models debates a motion twice, with the sides
 * swapped; a match's run id is fixed by the plan, so the same command finds the same runs again.
 */
import { createHash } from 'node:crypto';
import type { TournamentMatch } from '../analytics/tournament-match.js';
import { UsageError } from '../core/errors.js';
import { slugify } from '../store/run-id.js';
import { nextAdaptiveBatch } from './adaptive-schedule.js';
import { type JudgeRule, judgeCandidates, pickJudge } from './judge-rule.js';
import type { ModelOptions } from './lineup-file.js';
import { modelFamily } from './model-family.js';
import type { Motion } from './motions-file.js';
import { pairingKey, roundRobinPlan, roundRobinSize, type ScheduledDebate } from './round-robin.js';

export const TOURNAMENT_FORMATS = ['duel', 'formal', 'knockout'] as const;
export type TournamentFormat = (typeof TOURNAMENT_FORMATS)[number];
export const SCHEDULES = ['round-robin', 'adaptive'] as const;
export type Schedule = (typeof SCHEDULES)[number];

/** What a tournament was asked to be; its id is a hash of it. */
export interface TournamentSpec {
  models: string[];
  motions: Motion[];
  format: TournamentFormat;
  rounds: number;
  seed: number;
  schedule: Schedule;
  /** Most debates to run; the round-robin's count when not given. */
  budget: number;
  /** The models judges are drawn from: `--judges`, else the tournament's own models. */
  judges: string[] | null;
  /** What a line-up file set for some models (lineup-file.ts); absent when it set nothing. */
  modelOptions?: Record<string, ModelOptions>;
}

/** A model's family for the judge rule: the line-up file's, else the one its name gives. */
export function familyIn(spec: TournamentSpec): (model: string) => string {
  return (model) => spec.modelOptions?.[model]?.family ?? modelFamily(model);
}

/** One debate of the plan. */
export interface PlannedMatch {
  /** Its place in the plan, from 1. */
  index: number;
  runId: string;
  motionId: string;
  /** The model on the first side (the duel's Debater A, the formal affirmative). */
  first: string;
  second: string;
  judge: string;
  /** The rule the judge was drawn under. */
  judgeRule: JudgeRule;
}

export function tournamentId(spec: TournamentSpec): string {
  return `tournament-${createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 10)}`;
}

/** Every unordered pair of the models, in the order given. */
export function modelPairs(models: readonly string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  models.forEach((first, i) => {
    for (const second of models.slice(i + 1)) pairs.push([first, second]);
  });
  return pairs;
}

/**
 * The scheduled debates as planned matches numbered from `nextIndex`, each with its judge: both side
 * orders of a pairing on a motion get the same one, and the candidates are taken in turn by motion
 * and pair, so the judging spreads over them.
 */
export function plannedMatches(
  spec: TournamentSpec,
  id: string,
  debates: readonly ScheduledDebate[],
  nextIndex: number,
): PlannedMatch[] {
  const pairs = modelPairs(spec.models).map(([a, b]) => pairingKey({ first: a, second: b, motionId: '' }));
  return debates.map((debate, offset) => {
    const { rule, candidates } = judgeCandidates(
      spec.judges ?? spec.models,
      debate.first,
      debate.second,
      familyIn(spec),
    );
    const pairIndex = pairs.indexOf(pairingKey({ ...debate, motionId: '' }));
    const judge = pickJudge(candidates, Number(debate.motionId) + Math.max(0, pairIndex));
    const index = nextIndex + offset;
    return {
      index,
      runId: `${id}-${String(index).padStart(3, '0')}-${slugify(debate.first, 12)}-v-${slugify(debate.second, 12)}`,
      motionId: debate.motionId,
      first: debate.first,
      second: debate.second,
      judge,
      judgeRule: rule,
    };
  });
}

/** The two debates of one pairing on one motion, both side orders, numbered from `nextIndex`. */
export function pairingMatches(
  spec: TournamentSpec,
  id: string,
  motionId: string,
  [x, y]: [string, string],
  nextIndex: number,
): PlannedMatch[] {
  return plannedMatches(
    spec,
    id,
    [
      { first: x, second: y, motionId },
      { first: y, second: x, motionId },
    ],
    nextIndex,
  );
}

/** The round-robin: every motion, every pair, both side orders, motion by motion (round-robin.ts). */
export function roundRobinMatches(spec: TournamentSpec, id: string): PlannedMatch[] {
  return plannedMatches(
    spec,
    id,
    roundRobinPlan(
      spec.models,
      spec.motions.map((motion) => motion.id),
    ),
    1,
  );
}

/**
 * The next matches of an adaptive schedule (adaptive-schedule.ts: the pairs whose order is least
 * certain given the results so far), at most `pairings` pairings and never past the budget. The
 * first batch gives every pair one pairing, so the first fit has every model in it.
 */
export function adaptiveMatches(
  spec: TournamentSpec,
  id: string,
  planned: readonly PlannedMatch[],
  results: readonly TournamentMatch[],
  pairings: number,
): PlannedMatch[] {
  const room = Math.floor((spec.budget - planned.length) / 2);
  const wanted = Math.min(room, planned.length === 0 ? modelPairs(spec.models).length : pairings);
  if (wanted <= 0) return [];
  const debates = nextAdaptiveBatch({
    models: spec.models,
    motionIds: spec.motions.map((motion) => motion.id),
    results,
    scheduled: planned.map(({ first, second, motionId }) => ({ first, second, motionId })),
    pairings: wanted,
    seed: spec.seed,
  });
  return plannedMatches(spec, id, debates, planned.length + 1);
}

/**
 * Checks the judge rule for every pairing before anything starts: a pairing no judge may read
 * refuses the whole tournament. Returns the notices to show (pairings judged under a weaker rule).
 */
export function checkJudges(spec: TournamentSpec): string[] {
  const weaker: string[] = [];
  for (const [x, y] of modelPairs(spec.models)) {
    const { rule } = judgeCandidates(spec.judges ?? spec.models, x, y, familyIn(spec));
    if (rule !== 'other-family') weaker.push(`${x} v ${y}`);
  }
  if (weaker.length === 0) return [];
  return [
    `No judge of another family is left for ${weaker.length === 1 ? 'the pairing' : `${weaker.length} pairings`} (${weaker.slice(0, 4).join(', ')}${weaker.length > 4 ? ', ...' : ''}): their judges are only outside the match, and may share a debater's family. The tournament's log records the rule each match was judged under. Name judges of other families with --judges to avoid it.`,
  ];
}

/** Checks the numbers of a spec; throws a usage error naming the flag. */
export function checkSpec(spec: TournamentSpec): void {
  if (spec.models.length < 2)
    throw new UsageError(
      `--models needs at least two models to compare, got ${spec.models.length === 0 ? 'none' : spec.models.join(', ')}; e.g. --models llama3,mistral,qwen2.5`,
    );
  const repeated = spec.models.find((model, index) => spec.models.indexOf(model) !== index);
  if (repeated) throw new UsageError(`--models names ${repeated} twice; name each model once`);
  if (spec.budget < spec.models.length)
    throw new UsageError(
      `--budget ${spec.budget} is below the number of models (${spec.models.length}): every model needs at least one debate; give --budget ${spec.models.length} or more`,
    );
  const full = roundRobinSize(spec.models.length, spec.motions.length);
  if (spec.schedule === 'round-robin' && spec.budget < full)
    throw new UsageError(
      `--schedule round-robin takes ${full} debates (${spec.models.length} models, ${spec.motions.length} motions, both side orders), more than --budget ${spec.budget}; raise --budget or use --schedule adaptive`,
    );
}
