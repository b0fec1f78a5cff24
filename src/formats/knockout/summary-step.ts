/** The summary step: the running summary of the rounds the planner folds. */

import { recordedTokens } from '../../llm/call-usage.js';
import { ModelCallFailed } from '../../llm/safe-call.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
import type { StepContext } from '../format-definition.js';
import { call, fallbacksOf } from './model-call.js';
import type { KnockoutState } from './state.js';
import type { KnockoutStep } from './steps.js';

export async function summarise(
  step: Extract<KnockoutStep, { kind: 'summarise' }>,
  state: KnockoutState,
  context: StepContext,
) {
  const { scenario } = state;
  context.notify({ type: 'summary-start', throughRound: step.throughRound, model: step.model });
  const started = context.clock.monotonicMs();
  try {
    const { result, model, usage } = await call(
      state,
      context,
      {
        model: step.model,
        messages: step.messages,
        maxTokens: scenario.context.summary_max_tokens,
        contextWindow: scenario.model_options.context_window,
        temperature: 0.3,
        seed: derivedSeed(scenario.seed, `summary:through-round-${step.throughRound}`),
      },
      'the running summary',
      { fallbackModels: fallbacksOf(state, step.model) },
    );
    context.append({
      type: 'summary',
      throughRound: step.throughRound,
      text: result.text.trim(),
      model,
      ...recordedTokens(usage),
      realMs: Math.round(context.clock.monotonicMs() - started),
    });
  } catch (error) {
    if (!(error instanceof ModelCallFailed)) throw error;
    // The full text is kept; the planner goes on without a summary and tries again at the next step.
    context.logger.warn({ throughRound: step.throughRound, error: error.message }, 'summary failed');
    context.append({ type: 'step-failed', step: 'summary', round: step.throughRound, reason: error.message });
  }
}
