/** Scripted judge answers for the mock Ollama, matched on the judge's task in the prompt. */
import type { ScriptRule } from '../../src/mock-ollama/index.js';

export interface VoteSpec {
  round?: number;
  judge?: string;
  vote: 'rotate' | 'continue' | 'invalid';
  /** Every criterion gets this score (1-5). */
  score?: number;
  /** What the judge says about new substantive arguments (default true). */
  newArguments?: boolean;
  times?: number;
}

export function voteRule(spec: VoteSpec): ScriptRule {
  const round = spec.round === undefined ? '\\d+' : String(spec.round);
  const judge = spec.judge ?? '[^\\n]+';
  // A repair request ends with the repair instruction, so an unusable answer must match on the whole
  // prompt (which still holds the judge's task) to stay unusable on the second attempt too.
  const match: NonNullable<ScriptRule['match']> =
    spec.vote === 'invalid'
      ? {
          prompt:
            spec.round === undefined
              ? 'evaluate round '
              : `evaluate round ${spec.round}\nYour name: ${spec.judge ?? ''}`,
        }
      : { regex: `evaluate round ${round}\\nYour name: ${judge}\\n` };
  const rule: ScriptRule = { match };
  if (spec.times !== undefined) rule.times = spec.times;
  if (spec.vote === 'invalid') {
    rule.reply = 'I think the debater did fine overall.';
    return rule;
  }
  const score = spec.score ?? (spec.vote === 'rotate' ? 2 : 4);
  rule.json = {
    position_y_performance: {
      argument_strength: score,
      relevance: score,
      persuasiveness: score,
      clarity: score,
    },
    comments: `Scripted ${spec.vote} vote.`,
    continue_vote: spec.vote === 'continue',
    new_arguments: spec.newArguments ?? true,
  };
  return rule;
}
