/**
 * A tournament's plan: what it was asked (models, motions, format, rounds, seed, schedule, judges)
 * and the matches drawn from it. Every pairing of two models debates a motion twice, with the sides
 * swapped; a match's run id is fixed by the plan, so the same command finds the same runs again.
 */
import { createHash } from 'node:crypto';
import { UsageError } from '../core/errors.js';
import { slugify } from '../store/run-id.js';
import { type JudgeRule, judgeCandidates, pickJudge } from './judge-rule.js';
import type { Motion } from './motions-file.js';

export const TOURNAMENT_FORMATS = ['duel', 'formal'] as const;
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

/** Debates a full round-robin takes: every pair, on every motion, in both side orders. */
export function roundRobinSize(models: number, motions: number): number {
  return models * (models - 1) * motions;
}

/** A match's key regardless of its place in the plan: motion, then the two sides in order. */
export const matchKey = (motionId: string, first: string, second: string) =>
  `${motionId}\u0000${first}\u0000${second}`;

/**
 * The two debates of one pairing on one motion (both side orders), with the one judge both get,
 * numbered from `nextIndex`.
 */
export function pairingMatches(
  spec: TournamentSpec,
  id: string,
  motion: Motion,
  pair: [string, string],
  nextIndex: number,
): PlannedMatch[] {
  const [x, y] = pair;
  const { rule, candidates } = judgeCandidates(spec.judges ?? spec.models, x, y);
  const pairIndex = modelPairs(spec.models).findIndex(([a, b]) => a === x && b === y);
  const judge = pickJudge(candidates, Number(motion.id) + Math.max(0, pairIndex));
  return [
    [x, y],
    [y, x],
  ].map(([first, second], offset) => {
    const index = nextIndex + offset;
    return {
      index,
      runId: `${id}-${String(index).padStart(3, '0')}-${slugify(first as string, 12)}-v-${slugify(second as string, 12)}`,
      motionId: motion.id,
      first: first as string,
      second: second as string,
      judge,
      judgeRule: rule,
    };
  });
}

/** The round-robin: every motion, every pair, both side orders, motion by motion. */
export function roundRobinMatches(spec: TournamentSpec, id: string): PlannedMatch[] {
  const matches: PlannedMatch[] = [];
  for (const motion of spec.motions) {
    for (const pair of modelPairs(spec.models)) {
      matches.push(...pairingMatches(spec, id, motion, pair, matches.length + 1));
    }
  }
  return matches;
}

/**
 * Checks the judge rule for every pairing before anything starts: a pairing no judge may read
 * refuses the whole tournament. Returns the notices to show (pairings judged under a weaker rule).
 */
export function checkJudges(spec: TournamentSpec): string[] {
  const weaker: string[] = [];
  for (const [x, y] of modelPairs(spec.models)) {
    const { rule } = judgeCandidates(spec.judges ?? spec.models, x, y);
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
