/**
 * A judge's structured answer for the formal and duel formats: sent with a JSON-schema `format`,
 * validated with zod, repaired once, and otherwise recorded as an abstention.
 */

import type { z } from 'zod';
import { fittedChat } from '../../context/fitted-call.js';
import type { AssessmentEvent } from '../../core/events.js';
import { addUsage, NO_USAGE, recordedTokens } from '../../llm/call-usage.js';
import type { ChatMessage } from '../../llm/provider.js';
import { ModelCallFailed, type RetryPolicy } from '../../llm/safe-call.js';
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
  const request = asked;
  const started = context.clock.monotonicMs();
  let attempts = 0;
  let usage = NO_USAGE;
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
    ...recordedTokens(usage),
    realMs: Math.round(context.clock.monotonicMs() - started),
    attempts,
  });
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    let text: string;
    try {
      const answer = await fittedChat(
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
          what: `${request.judge} (${request.phase})`,
          ...(context.tokenRates ? { rates: context.tokenRates } : {}),
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
      usage = addUsage(usage, answer.usage);
      text = answer.result.text;
    } catch (error) {
      if (!(error instanceof ModelCallFailed)) throw error;
      attempts += error.attempts;
      usage = addUsage(usage, error.usage);
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
