/**
 * The summary step: one part of the running summary (or one summary that replaces its parts). An
 * answer cut at its token cap is not kept as it is: the summary is asked for again, shorter, and
 * the event says so; if even the shorter one is cut, its text ends with a note that says so, so
 * nobody reads a cut sentence as the end of the debate's story.
 */

import { addUsage, NO_USAGE, recordedTokens } from '../../llm/call-usage.js';
import { ModelCallFailed } from '../../llm/safe-call.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
import type { StepContext } from '../format-definition.js';
import { call, fallbacksOf } from './model-call.js';
import type { KnockoutState } from './state.js';
import type { KnockoutStep } from './steps.js';
import { LEDGER_SUMMARY_MODEL, summaryMessages } from './summary-prompts.js';

/** The note a summary still cut at its cap ends with. */
export const SUMMARY_CUT_NOTE = '[The summary was cut off here at its length limit.]';

/** A shorter summary asks for this share of the words of the one that was cut. */
const SHORTER = 0.6;

type SummariseStep = Extract<KnockoutStep, { kind: 'summarise' }>;

export async function summarise(step: SummariseStep, state: KnockoutState, context: StepContext) {
  const { scenario } = state;
  if (step.text !== undefined) {
    // Written from the claims ledger: no model call, nothing to wait for.
    context.append({
      type: 'summary',
      ...(step.fromRound > 1 ? { fromRound: step.fromRound } : {}),
      throughRound: step.throughRound,
      text: step.text,
      model: LEDGER_SUMMARY_MODEL,
      promptTokens: 0,
      promptChars: 0,
      outputTokens: 0,
      realMs: 0,
    });
    return;
  }
  context.notify({ type: 'summary-start', throughRound: step.throughRound, model: step.model });
  const started = context.clock.monotonicMs();
  const ask = (messages: SummariseStep['messages'], attempt: number) =>
    call(
      state,
      context,
      {
        model: step.model,
        messages,
        maxTokens: scenario.context.summary_max_tokens,
        contextWindow: scenario.model_options.context_window,
        temperature: 0.3,
        seed: derivedSeed(
          scenario.seed,
          `summary:through-round-${step.throughRound}${attempt > 1 ? `:attempt-${attempt}` : ''}`,
        ),
      },
      'the running summary',
      { fallbackModels: fallbacksOf(state, step.model) },
    );
  let usage = NO_USAGE;
  try {
    let answer = await ask(step.messages, 1);
    usage = answer.usage;
    const shortened = answer.result.stopReason === 'length';
    if (shortened) {
      const words = Math.max(40, Math.round(step.words * SHORTER));
      context.logger.warn(
        { throughRound: step.throughRound, words },
        'summary cut at its token cap; asked for a shorter one',
      );
      answer = await ask(summaryMessages(state, { ...step, words }), 2);
      usage = addUsage(usage, answer.usage);
    }
    const cut = shortened && answer.result.stopReason === 'length';
    const text = answer.result.text.trim();
    context.append({
      type: 'summary',
      ...(step.fromRound > 1 ? { fromRound: step.fromRound } : {}),
      throughRound: step.throughRound,
      text: cut ? `${text}\n${SUMMARY_CUT_NOTE}` : text,
      model: answer.model,
      ...(shortened ? { shortened: true } : {}),
      ...(cut ? { cut: true } : {}),
      ...recordedTokens(usage),
      realMs: Math.round(context.clock.monotonicMs() - started),
    });
  } catch (error) {
    if (!(error instanceof ModelCallFailed)) throw error;
    // The full text is kept; the planner goes on without this summary and tries again later.
    context.logger.warn({ throughRound: step.throughRound, error: error.message }, 'summary failed');
    context.append({
      type: 'step-failed',
      step: 'summary',
      round: step.throughRound,
      reason: error.message,
      model: step.model,
    });
  }
}
