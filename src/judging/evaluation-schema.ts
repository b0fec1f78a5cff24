/**
 * What a knockout judge must answer: the SRS evaluation template without what the engine fills in
 * (the round number, the weighted total). Sent as the JSON schema of the call, bounded so a
 * grammar-constrained answer fits its cap, and read back leniently.
 */
import { z } from 'zod';
import { answerJsonSchema, boundedInteger, boundedText, looseBoolean } from './answer-fields.js';
import { type Criteria, SCORE_MAX, SCORE_MIN } from './criteria.js';

/** The comments' length: what the cap leaves after the scores and the vote, at most 600 characters. */
export function commentChars(maxTokens: number): number {
  return Math.max(120, Math.min(600, Math.floor((maxTokens - 100) * 2)));
}

function buildJudgeAnswerSchema(criteria: Criteria, maxTokens: number) {
  const scores = Object.fromEntries(
    Object.keys(criteria).map((name) => [name, boundedInteger(SCORE_MIN, SCORE_MAX)]),
  );
  // The order is the order the model writes in (structured output follows it): the reasoning comes
  // before the scores and the vote, so a small model decides after it has reasoned.
  return z.object({
    comments: boundedText(commentChars(maxTokens)),
    position_y_performance: z.object(scores),
    new_arguments: looseBoolean,
    continue_vote: looseBoolean,
  });
}

// Built once per criteria set and cap: building zod and JSON schemas on every judge call was a
// large part of the engine's own CPU time per model call.
const answerSchemas = new WeakMap<Criteria, Map<number, ReturnType<typeof buildJudgeAnswerSchema>>>();
const answerJsonSchemas = new WeakMap<Criteria, Map<number, Record<string, unknown>>>();

function cached<T>(
  store: WeakMap<Criteria, Map<number, T>>,
  criteria: Criteria,
  maxTokens: number,
  build: () => T,
) {
  let byCap = store.get(criteria);
  if (!byCap) {
    byCap = new Map();
    store.set(criteria, byCap);
  }
  let value = byCap.get(maxTokens);
  if (value === undefined) {
    value = build();
    byCap.set(maxTokens, value);
  }
  return value;
}

export function judgeAnswerSchema(criteria: Criteria, maxTokens: number) {
  return cached(answerSchemas, criteria, maxTokens, () => buildJudgeAnswerSchema(criteria, maxTokens));
}

export type JudgeAnswer = z.infer<ReturnType<typeof judgeAnswerSchema>>;

/** The JSON schema sent with the call, so a constrained sampler can only produce valid answers. */
export function judgeAnswerJsonSchema(criteria: Criteria, maxTokens: number): Record<string, unknown> {
  return cached(answerJsonSchemas, criteria, maxTokens, () =>
    answerJsonSchema(judgeAnswerSchema(criteria, maxTokens)),
  );
}
