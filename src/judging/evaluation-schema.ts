/**
 * What a judge must answer: the SRS evaluation template without the total (the engine computes
 * it). Sent to Ollama as the `format` JSON schema, and checked again with zod on the way back.
 */
import { z } from 'zod';
import { type Criteria, SCORE_MAX, SCORE_MIN } from './criteria.js';

function buildJudgeAnswerSchema(criteria: Criteria) {
  const scores = Object.fromEntries(
    Object.keys(criteria).map((name) => [name, z.number().int().min(SCORE_MIN).max(SCORE_MAX)]),
  );
  // The order is the order the model writes in (Ollama's structured output follows it): the
  // reasoning comes before the scores and the vote, so a small model decides after it has reasoned.
  return z.object({
    round_number: z.number().int(),
    comments: z.string().min(1),
    position_y_performance: z.object(scores),
    new_arguments: z.boolean(),
    continue_vote: z.boolean(),
  });
}

// Built once per criteria set: building zod and JSON schemas on every judge call was a large part
// of the engine's own CPU time per model call.
const answerSchemas = new WeakMap<Criteria, ReturnType<typeof buildJudgeAnswerSchema>>();
const answerJsonSchemas = new WeakMap<Criteria, Record<string, unknown>>();

export function judgeAnswerSchema(criteria: Criteria) {
  let schema = answerSchemas.get(criteria);
  if (!schema) {
    schema = buildJudgeAnswerSchema(criteria);
    answerSchemas.set(criteria, schema);
  }
  return schema;
}

export type JudgeAnswer = z.infer<ReturnType<typeof judgeAnswerSchema>>;

/** The JSON schema sent as Ollama's `format`, so the model's sampler can only produce valid answers. */
export function judgeAnswerJsonSchema(criteria: Criteria): Record<string, unknown> {
  let schema = answerJsonSchemas.get(criteria);
  if (!schema) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(judgeAnswerSchema(criteria)) as Record<
      string,
      unknown
    >;
    schema = rest;
    answerJsonSchemas.set(criteria, schema);
  }
  return schema;
}

/** Parses a judge's raw answer; returns the answer or a short list of what was wrong. */
export function parseJudgeAnswer(
  text: string,
  criteria: Criteria,
): { ok: true; answer: JudgeAnswer } | { ok: false; problems: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, problems: 'the answer is not valid JSON' };
  }
  const parsed = judgeAnswerSchema(criteria).safeParse(data);
  if (parsed.success) return { ok: true, answer: parsed.data };
  const problems = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || 'answer'}: ${issue.message}`)
    .join('; ');
  return { ok: false, problems };
}
