/** How the knockout steps call a model: fitted to the window, retried, with fallbacks and live notices. */
import { fittedChat } from '../../context/fitted-call.js';
import type { ChatRequest } from '../../llm/provider.js';
import { retryPolicyOf, type SafeCallResult } from '../../llm/safe-call.js';
import type { StepContext } from '../format-definition.js';
import type { KnockoutState } from './state.js';

/** A model call with the scenario's retry policy, the agent's fallbacks and live retry notices. */
export function call(
  state: KnockoutState,
  context: StepContext,
  request: ChatRequest,
  what: string,
  extra: { fallbackModels?: readonly string[]; onDelta?: (text: string) => void } = {},
): Promise<SafeCallResult> {
  const { reliability } = state.scenario;
  return fittedChat(context.provider, request, {
    what,
    ...(context.tokenRates ? { rates: context.tokenRates } : {}),
    marginTokens: state.scenario.context.margin_tokens,
    policy: retryPolicyOf(reliability),
    signal: context.signal,
    ...(extra.fallbackModels ? { fallbackModels: extra.fallbackModels } : {}),
    ...(extra.onDelta ? { onDelta: extra.onDelta } : {}),
    onRetry: ({ model, attempt, delayMs, error }) => {
      context.logger.warn(
        { what, model, attempt, delayMs, error: error.message, kind: error.kind },
        'model call retried',
      );
      context.notify({ type: 'retry', what: `${what} (${model})`, attempt, delayMs, reason: error.kind });
    },
  });
}

/**
 * Fallbacks for a call that borrows an agent's model (claims, summaries, commentary): the fallback
 * models of the agents that use it, so a missing model is replaced as it would be for them.
 */
export function fallbacksOf(state: KnockoutState, model: string): string[] {
  return [
    ...new Set(
      state.scenario.agents
        .filter((agent) => agent.model === model)
        .flatMap((agent) => agent.fallback_models),
    ),
  ];
}
