/**
 * Whether the text every prompt carries (the topic, the background knowledge and the context
 * files) can fit the model's context window at all. Prompts are sent with `truncate: false`, so
 * text that cannot fit would fail every call, or cost the whole window on each one.
 */
import { estimateTokens, promptBudget } from '../core/token-estimate.js';
import { backgroundText } from './background-text.js';
import type { RuleFinding } from './rule-finding.js';
import type { ContextFile } from './scenario.js';
import type { ScenarioFile } from './scenario-schema.js';

/** Tokens kept free besides the answer, for formats without a `context.margin_tokens` setting. */
const DEFAULT_MARGIN_TOKENS = 256;

/** The largest answer cap among the format's calls, with the field that sets it, and the margin. */
function reserved(scenario: ScenarioFile): { answer: number; field: string; margin: number } {
  const largest = (caps: Array<[string, number]>) =>
    caps.reduce((best, cap) => (cap[1] > best[1] ? cap : best));
  let caps: Array<[string, number]>;
  let margin = DEFAULT_MARGIN_TOKENS;
  switch (scenario.format) {
    case 'knockout':
      caps = [
        ['model_options.max_tokens', scenario.model_options.max_tokens],
        ['judging.max_tokens', scenario.judging.max_tokens],
        ['context.summary_max_tokens', scenario.context.summary_max_tokens],
      ];
      margin = scenario.context.margin_tokens;
      break;
    case 'formal':
      caps = [
        ['model_options.max_tokens', scenario.model_options.max_tokens],
        ['preparation.max_tokens', scenario.preparation.max_tokens],
        ['verdict.max_tokens', scenario.verdict.max_tokens],
      ];
      break;
    case 'duel':
    case 'truth':
      caps = [
        ['debater_max_tokens', scenario.debater_max_tokens],
        ['judge_max_tokens', scenario.judge_max_tokens],
      ];
      break;
    case 'critique':
    case 'council':
      caps = [
        ['max_tokens', scenario.max_tokens],
        ['judge_max_tokens', scenario.judge_max_tokens],
      ];
      break;
  }
  const [field, answer] = largest(caps);
  return { answer, field, margin };
}

/** A problem when the shared text alone is larger than what a prompt may hold; otherwise null. */
export function checkBackgroundFits(scenario: ScenarioFile, files: ContextFile[]): RuleFinding | null {
  const window = scenario.model_options.context_window;
  const { answer, field, margin } = reserved(scenario);
  const budget = promptBudget(window, answer, margin);
  // A window too small for the answers themselves is a different mistake, reported on its own.
  if (budget <= 0) return null;
  const background = backgroundText(scenario.background, files);
  const tokens = estimateTokens(scenario.topic.length + background.length);
  if (tokens <= budget) return null;
  const onlyTopic = background === '';
  return {
    path: onlyTopic ? ['topic'] : ['background'],
    message: `${onlyTopic ? 'the topic comes' : 'the topic, the background knowledge and context files come'} to about ${tokens} tokens, more than the ${budget} a prompt can hold (model_options.context_window ${window}, minus ${field} ${answer} for the answer and a margin of ${margin}); shorten ${onlyTopic ? 'the topic' : 'the background'}, or raise model_options.context_window if the model supports a larger window`,
  };
}
