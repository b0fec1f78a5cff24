/**
 * Who may judge a tournament match. The strongest rule first: a judge is a model that is not in the
 * match and not of either debater's family (model-family.ts). When the models at hand leave no such
 * judge for a pairing, the next rule holds: a model that is not in the match. When even that leaves
 * none (two models and no `--judges`), the tournament cannot judge the pairing and is refused.
 */
import { UsageError } from '../core/errors.js';
import { modelFamily } from './model-family.js';

/** The rule a match's judge was drawn under, strongest first; recorded in the tournament log. */
export type JudgeRule = 'other-family' | 'other-model';

export const JUDGE_RULE_TEXT: Record<JudgeRule, string> = {
  'other-family': 'not in the match, not of either debater’s family',
  'other-model': 'not in the match (no model of another family was left)',
};

/**
 * The models that may judge `first` against `second` from `pool`, under the strongest rule that
 * leaves one; `familyOf` gives a model's family (its name's, unless a line-up file set it).
 */
export function judgeCandidates(
  pool: readonly string[],
  first: string,
  second: string,
  familyOf: (model: string) => string = modelFamily,
): { rule: JudgeRule; candidates: string[] } {
  const outside = pool.filter((model) => model !== first && model !== second);
  const debaters = [familyOf(first), familyOf(second)];
  const otherFamily = outside.filter((model) => !debaters.includes(familyOf(model)));
  if (otherFamily.length > 0) return { rule: 'other-family', candidates: otherFamily };
  if (outside.length > 0) return { rule: 'other-model', candidates: outside };
  throw new UsageError(
    `no judge is left for ${first} against ${second}: the judges come from ${pool.join(', ')}, and a judge may be neither debater nor of a debater's family; name a judge of another family with --judges MODEL (e.g. --judges qwen2.5), or add a third model to --models`,
  );
}

/**
 * The judge of one pairing on one motion: the candidates taken in turn, so the judging spreads over
 * them; both side orders of a pairing on a motion get the same judge, so its two readings compare.
 */
export function pickJudge(candidates: readonly string[], turn: number): string {
  return candidates[turn % candidates.length] as string;
}
