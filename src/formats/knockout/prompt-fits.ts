/**
 * Whether a planned call's prompt fits its model's context window, estimated with the model's
 * characters per token as measured in the run's earlier rounds (so concurrent judges finishing in
 * any order, or a resume in the middle of a round, cannot change what is planned).
 */
import { promptChars } from '../../agents/prompts.js';
import {
  calibrate,
  charsWithin,
  DEFAULT_CHARS_PER_TOKEN,
  estimateTokens,
  promptBudget,
} from '../../core/token-estimate.js';
import type { ChatMessage } from '../../llm/provider.js';
import type { KnockoutState } from './state.js';

/** A model call as the planner would make it. */
export interface PlannedCall {
  model: string;
  messages: ChatMessage[];
  /** The answer's cap (num_predict). */
  tokenLimit: number;
}

/** The round a call planned from this state belongs to: the open round, or the next one. */
function currentRound(state: KnockoutState): number {
  const last = state.rounds.at(-1);
  return last?.end ? last.number + 1 : (last?.number ?? 1);
}

/** Characters per token of `model`, from the rounds before the current one. */
function charsPerToken(state: KnockoutState, model: string): number | undefined {
  const current = currentRound(state);
  return calibrate(state.promptSamples.filter((sample) => sample.round < current)).get(model);
}

/**
 * Characters a call's prompt could still take (negative when it is over): the estimate of its
 * tokens must stay within the window less the answer's cap and the margin.
 */
export function slackChars(state: KnockoutState, call: PlannedCall): number {
  const { context_window: window } = state.scenario.model_options;
  const budget = promptBudget(window, call.tokenLimit, state.scenario.context.margin_tokens);
  return charsWithin(budget, charsPerToken(state, call.model)) - promptChars(call.messages);
}

export function fits(state: KnockoutState, call: PlannedCall): boolean {
  // After a failed summary the full text goes ahead as it is; the summary is tried again later.
  if (state.summaryFailed) return true;
  const rate = charsPerToken(state, call.model);
  const { context_window: window } = state.scenario.model_options;
  return (
    estimateTokens(promptChars(call.messages), rate) <=
    promptBudget(window, call.tokenLimit, state.scenario.context.margin_tokens)
  );
}

/** A call's prompt in estimated tokens, and the characters per token it was estimated at. */
export function promptEstimate(state: KnockoutState, call: PlannedCall): { tokens: number; rate: number } {
  const rate = charsPerToken(state, call.model) ?? DEFAULT_CHARS_PER_TOKEN;
  return { tokens: estimateTokens(promptChars(call.messages), rate), rate };
}
