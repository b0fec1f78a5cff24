/**
 * Whether a whole round of a knockout fits its window: the round's calls with its statements
 * written to their caps, at each model's measured characters per token. A knockout cannot cut the
 * round it is in (only finished rounds fold into the summary), so a round whose last prompt (a
 * judge's, with both statements) cannot fit stops the run after its first round (exit 3); this
 * says so before the first call, naming the call, with the rule the run's planner applies
 * (formats/knockout/prompt-fits.ts: the estimate within the window less the cap and the margin).
 */
import { promptChars } from '../agents/prompts.js';
import type { KnockoutScenario, Scenario } from '../config/scenario.js';
import { ContextWindowError } from '../context/context-window-error.js';
import { DEFAULT_CHARS_PER_TOKEN, estimateTokens, promptBudget } from '../core/token-estimate.js';
import { formatNamed } from '../formats/index.js';
import { projected } from '../formats/knockout/fold-plan.js';
import {
  claimsCall,
  claimsModel,
  judgeCall,
  judgesOf,
  speakerOf,
  speakingOrder,
  statementCall,
  statementTokenLimit,
} from '../formats/knockout/round-calls.js';
import type { KnockoutState } from '../formats/knockout/state.js';

/** One call of the round as it would be sent, and whether it fits. */
export interface RoundCallFit {
  what: string;
  model: string;
  maxTokens: number;
  /** Estimated tokens of its prompt, with the round's statements before it at their caps. */
  promptTokens: number;
  charsPerToken: number;
  error?: ContextWindowError;
}

function startState(scenario: KnockoutScenario): KnockoutState {
  return formatNamed('knockout')?.fold(undefined, {
    type: 'run-start',
    seq: 1,
    at: new Date(0).toISOString(),
    runId: 'round-fit',
    format: 'knockout',
    scenario,
    engineVersion: '0',
  }) as KnockoutState;
}

/**
 * The calls of a knockout's first round, each fitted to `contextWindow` at its model's rate (the
 * first guess of 4 for a model not measured); empty for other formats.
 */
export function fitWholeRound(
  scenario: Scenario,
  contextWindow: number,
  rates: ReadonlyMap<string, number>,
): RoundCallFit[] {
  if (scenario.format !== 'knockout') return [];
  const knockout = scenario as KnockoutScenario;
  const state = startState(knockout);
  const debater = state.currentDebater;
  const order = speakingOrder(knockout);
  const rate = (model: string) => rates.get(model) ?? DEFAULT_CHARS_PER_TOKEN;
  // A statement written to its cap, in characters at its speaker's rate (the longest of the two).
  const chars = Math.max(
    ...order.map((position) =>
      Math.ceil(statementTokenLimit(knockout) * rate(speakerOf(knockout, position, debater).model)),
    ),
  );
  const afterFirst = projected(state, 1, order.slice(0, 1), chars);
  const afterBoth = projected(state, 1, order, chars);
  const calls = order.map((position, index) => {
    const call = statementCall(index === 0 ? state : afterFirst, position, 1, debater);
    return { ...call, what: `${call.agent.name}'s statement` };
  });
  const planned: Array<{
    what: string;
    model: string;
    tokenLimit: number;
    messages: (typeof calls)[0]['messages'];
  }> = [...calls];
  if (knockout.memory.claims === 'model') {
    order.forEach((position, index) => {
      const agent = speakerOf(knockout, position, debater);
      const model = claimsModel(knockout, index, position, debater, agent.model);
      const call = claimsCall(index === 0 ? afterFirst : afterBoth, 1, agent.name, position, model);
      planned.push({ ...call, what: `the claims of ${agent.name}` });
    });
  }
  for (const judge of judgesOf(knockout, debater)) {
    planned.push({ ...judgeCall(afterBoth, judge, 1, debater), what: `${judge}'s evaluation` });
  }
  const margin = knockout.context.margin_tokens;
  return planned.map((call) => {
    const charsPerToken = rate(call.model);
    const promptTokens = estimateTokens(promptChars(call.messages), charsPerToken);
    const budget = promptBudget(contextWindow, call.tokenLimit, margin);
    const fit = {
      what: call.what,
      model: call.model,
      maxTokens: call.tokenLimit,
      promptTokens,
      charsPerToken,
    };
    if (promptTokens <= budget) return fit;
    return {
      ...fit,
      error: new ContextWindowError(
        `the context window is too small: one round does not fit in ${contextWindow} tokens: the prompt for ${call.what}, with the round's statements written to their caps, comes to about ${promptTokens} tokens, and its answer needs ${call.tokenLimit} more (at ${charsPerToken.toFixed(2)} characters per token); raise model_options.context_window (and the server's own window: llama-server -c, vLLM --max-model-len) or lower model_options.max_tokens`,
      ),
    };
  });
}
