/**
 * A structured answer recorded as an assessment (duel judgements, formal verdicts, critique
 * syntheses, council positions and decisions): asked, read and repaired by `askStructured`, and
 * otherwise recorded as an abstention that keeps what the model wrote.
 */

import type { z } from 'zod';
import type { AssessmentEvent } from '../../core/events.js';
import type { StepContext } from '../../core/format.js';
import { recordedTokens } from '../../llm/call-usage.js';
import type { ChatMessage } from '../../llm/provider.js';
import type { RetryPolicy } from '../../llm/safe-call.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
import { askStructured } from './structured-call.js';

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
  /** Let a thinking model think (its thinking is never kept), with this many tokens for it. */
  think?: boolean;
  thinkingBudget?: number;
  /** Derived figures added to a valid answer (e.g. weighted totals). */
  enrich?: (answer: T) => Record<string, unknown>;
}

export async function produceAssessment<T extends Record<string, unknown>>(
  request: AssessmentRequest<T>,
  context: StepContext,
): Promise<Omit<AssessmentEvent, 'seq' | 'at'>> {
  const started = context.clock.monotonicMs();
  const outcome = await askStructured(
    {
      what: `${request.judge} (${request.phase})`,
      model: request.model,
      fallbackModels: request.fallbackModels,
      messages: request.messages,
      schema: request.schema,
      jsonSchema: request.jsonSchema,
      maxTokens: request.maxTokens,
      contextWindow: request.contextWindow,
      temperature: request.temperature,
      seedOf: (attempt) =>
        derivedSeed(
          request.seed,
          `${request.phase}:round-${request.round}:${request.judge}${request.seedLabel ? `:${request.seedLabel}` : ''}:attempt-${attempt}`,
        ),
      policy: request.policy,
      ...(request.think ? { think: true } : {}),
      ...(request.thinkingBudget ? { thinkingBudget: request.thinkingBudget } : {}),
      onRepair: (reason) =>
        context.notify({ type: 'judge-retry', round: request.round, judge: request.judge, reason }),
    },
    context,
  );
  const value = outcome.value;
  return {
    type: 'assessment',
    phase: request.phase,
    round: request.round,
    judge: request.judge,
    model: outcome.model,
    result: value ? { ...value, ...request.enrich?.(value) } : null,
    abstained: value === null,
    ...(value === null && outcome.reason ? { reason: outcome.reason } : {}),
    ...(outcome.callFailed ? { callFailed: true } : {}),
    ...(outcome.problems.length > 0 ? { problems: outcome.problems } : {}),
    ...(outcome.fallbackFrom ? { fallbackFrom: outcome.fallbackFrom } : {}),
    ...recordedTokens(outcome.usage),
    realMs: Math.round(context.clock.monotonicMs() - started),
    attempts: outcome.attempts,
  };
}
