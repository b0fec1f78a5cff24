/**
 * A judge's structured answer for the formal and duel formats: sent with a JSON-schema `format`,
 * validated with zod, repaired once, and otherwise recorded as an abstention.
 */

import type { z } from 'zod';
import { promptChars } from '../../agents/prompts.js';
import { fitToWindow } from '../../context/fit-window.js';
import type { AssessmentEvent } from '../../core/events.js';
import type { ChatMessage } from '../../llm/provider.js';
import { ModelCallFailed, type RetryPolicy, safeChat } from '../../llm/safe-call.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
import type { StepContext } from '../format-definition.js';

export interface AssessmentRequest<T extends Record<string, unknown>> {
  phase: AssessmentEvent['phase'];
  round: number;
  judge: string;
  model: string;
  fallbackModels: readonly string[];
  messages: ChatMessage[];
  schema: z.ZodType<T>;
  jsonSchema: Record<string, unknown>;
  maxTokens: number;
  contextWindow: number;
  temperature: number;
  seed: number;
  /** Told apart in the call's seed, for a second call of the same judge on the same step. */
  seedLabel?: string;
  policy: RetryPolicy;
  /** Let a thinking model think (its thinking is never kept). */
  think?: boolean;
  /** Derived figures added to a valid answer (e.g. weighted totals). */
  enrich?: (answer: T) => Record<string, unknown>;
}

export async function produceAssessment<T extends Record<string, unknown>>(
  asked: AssessmentRequest<T>,
  context: StepContext,
): Promise<Omit<AssessmentEvent, 'seq' | 'at'>> {
  const request = {
    ...asked,
    messages: fitToWindow(asked.messages, {
      contextWindow: asked.contextWindow,
      maxTokens: asked.maxTokens,
      what: `${asked.judge} (${asked.phase})`,
    }).messages,
  };
  const started = context.clock.monotonicMs();
  let attempts = 0;
  let promptTokens = 0;
  let outputTokens = 0;
  let model = request.model;
  let messages = request.messages;
  let reason = '';
  const event = (
    outcome: Pick<AssessmentEvent, 'result' | 'abstained'> & { reason?: string; callFailed?: boolean },
  ) => ({
    type: 'assessment' as const,
    phase: request.phase,
    round: request.round,
    judge: request.judge,
    model,
    ...outcome,
    promptTokens,
    promptChars: promptChars(request.messages),
    outputTokens,
    realMs: Math.round(context.clock.monotonicMs() - started),
    attempts,
  });
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    let text: string;
    try {
      const answer = await safeChat(
        context.provider,
        {
          model: request.model,
          messages,
          maxTokens: request.maxTokens,
          contextWindow: request.contextWindow,
          temperature: request.temperature,
          seed: derivedSeed(
            request.seed,
            `${request.phase}:round-${request.round}:${request.judge}${request.seedLabel ? `:${request.seedLabel}` : ''}:attempt-${attempt}`,
          ),
          jsonSchema: request.jsonSchema,
          ...(request.think ? { think: true } : {}),
        },
        {
          policy: request.policy,
          signal: context.signal,
          fallbackModels: request.fallbackModels,
          onRetry: ({ model: failing, attempt: retry, delayMs, error }) =>
            context.notify({
              type: 'retry',
              what: `${request.judge} (${failing})`,
              attempt: retry,
              delayMs,
              reason: error.kind,
            }),
        },
      );
      attempts += answer.attempts;
      model = answer.model;
      if (attempt === 1) promptTokens = answer.result.promptTokens;
      outputTokens += answer.result.outputTokens;
      text = answer.result.text;
    } catch (error) {
      if (!(error instanceof ModelCallFailed)) throw error;
      attempts += error.attempts;
      return event({
        result: null,
        abstained: true,
        reason: `model call failed: ${error.message}`,
        callFailed: true,
      });
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
    const parsed = data === undefined ? undefined : request.schema.safeParse(data);
    if (parsed?.success) {
      return event({ result: { ...parsed.data, ...request.enrich?.(parsed.data) }, abstained: false });
    }
    const problems = parsed
      ? parsed.error.issues
          .slice(0, 5)
          .map((issue) => `${issue.path.join('.') || 'answer'}: ${issue.message}`)
          .join('; ')
      : 'the answer is not valid JSON';
    reason = `invalid answer: ${problems}`;
    context.notify({ type: 'judge-retry', round: request.round, judge: request.judge, reason });
    messages = [
      ...request.messages,
      {
        role: 'user',
        content: `Your previous answer could not be used (${problems.slice(0, 300)}). Reply again with only the JSON object in the required format.`,
      },
    ];
  }
  return event({ result: null, abstained: true, reason });
}
