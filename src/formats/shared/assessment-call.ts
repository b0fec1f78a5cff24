/**
 * A structured answer recorded as an assessment (duel judgements, formal verdicts, critique
 * syntheses, council positions and decisions): asked, read and repaired by `askStructured`, and
 * otherwise recorded as an abstention that keeps what the model wrote.
 */

import type { AssessmentEvent } from '../../core/events.js';
import { recordedTokens } from '../../llm/call-usage.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
import type { StepContext } from '../format-definition.js';
import { askStructured, type StructuredRequest } from './structured-call.js';

/** A structured call recorded as an assessment: who answers for which phase, and the call itself. */
export interface AssessmentRequest<T extends Record<string, unknown>>
  extends Omit<StructuredRequest<T>, 'what' | 'seedOf' | 'onRepair'> {
  phase: AssessmentEvent['phase'];
  round: number;
  judge: string;
  seed: number;
  /** Told apart in the call's seed, for a second call of the same judge on the same step. */
  seedLabel?: string;
  /** Derived figures added to a valid answer (e.g. weighted totals). */
  enrich?: (answer: T) => Record<string, unknown>;
}

export async function produceAssessment<T extends Record<string, unknown>>(
  request: AssessmentRequest<T>,
  context: StepContext,
): Promise<Omit<AssessmentEvent, 'seq' | 'at'>> {
  const started = context.clock.monotonicMs();
  const { phase, round, judge, seed, seedLabel, enrich: _enrich, ...call } = request;
  const outcome = await askStructured(
    {
      ...call,
      what: `${judge} (${phase})`,
      seedOf: (attempt) =>
        derivedSeed(
          seed,
          `${phase}:round-${round}:${judge}${seedLabel ? `:${seedLabel}` : ''}:attempt-${attempt}`,
        ),
      onRepair: (reason) => context.notify({ type: 'judge-retry', round, judge, reason }),
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
    ...(outcome.clamped ? { clamped: outcome.clamped } : {}),
    ...(outcome.fallbackFrom ? { fallbackFrom: outcome.fallbackFrom } : {}),
    ...recordedTokens(outcome.usage),
    realMs: Math.round(context.clock.monotonicMs() - started),
    attempts: outcome.attempts,
  };
}
