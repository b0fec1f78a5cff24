/** Strict mode's moderator: checks that a statement is on the motion and follows debate conventions. */
import { z } from 'zod';
import { answerJsonSchema, boundedText, looseBoolean } from '../../judging/answer-fields.js';
import { readStructuredAnswer } from '../../judging/structured-answer.js';
import { type RetryPolicy, safeChat } from '../../llm/safe-call.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
import { TIME_LIMIT_MARKER } from '../../timer/speaking-timer.js';
import type { StepContext } from '../format-definition.js';

/** What the moderator reads of the statement it checks (a statement request has all of it). */
export interface ModeratedStatement {
  label: string;
  heading: string;
  phase: string;
  contextWindow: number;
  seed: number;
  policy: RetryPolicy;
}

/** The moderator's check, its reasoning before its two verdicts. */
const verdictSchema = z.object({
  assessment: boundedText(300),
  on_topic: looseBoolean,
  follows_conventions: looseBoolean,
});

const verdictJsonSchema = answerJsonSchema(verdictSchema);

/**
 * The moderator's rules: the conventions it can check from the one statement it reads. It does not
 * see the debate, so it is told not to judge whether facts or quotations are accurate; and a
 * statement the speaking clock cut ends with the marker that says so, which is no fault.
 */
export function moderatorRules(motion: string): string {
  return [
    `You moderate a formal debate. Motion: ${motion}`,
    'Debate conventions: address the motion, argue the assigned side, stay respectful, no personal attacks, plain prose.',
    `You read one statement, not the whole debate: do not judge whether its facts or quotations are accurate. A statement that ends with "${TIME_LIMIT_MARKER}" was cut off by the speaking clock; an unfinished ending is not a fault.`,
  ].join('\n');
}

export async function moderate(
  moderator: { model: string; motion: string; speaker?: string },
  speaker: string,
  text: string,
  request: ModeratedStatement,
  context: StepContext,
): Promise<{ passed: boolean; reason: string }> {
  try {
    const { result } = await safeChat(
      context.provider,
      {
        model: moderator.model,
        messages: [
          {
            role: 'system',
            content: moderatorRules(moderator.motion),
          },
          {
            role: 'user',
            content: `Check this statement by ${moderator.speaker ?? speaker} (${request.label}, ${request.heading}).\n\n${text}\n\nAnswer only with JSON, in this order: {"assessment": "<one sentence: is it on the motion, and does it follow the conventions? if not, what is wrong>", "on_topic": true|false, "follows_conventions": true|false}`,
          },
        ],
        maxTokens: 200,
        contextWindow: request.contextWindow,
        temperature: 0,
        seed: derivedSeed(request.seed, `moderation:${request.phase}:${speaker}:${text.length}`),
        jsonSchema: verdictJsonSchema,
      },
      { policy: request.policy, signal: context.signal },
    );
    const parsed = readStructuredAnswer(result.text, verdictSchema, result.stopReason);
    if (!parsed.ok) return { passed: true, reason: 'the moderator gave no usable answer' };
    const passed = parsed.value.on_topic && parsed.value.follows_conventions;
    const reason = passed
      ? ''
      : parsed.value.assessment || (parsed.value.on_topic ? 'breaks debate conventions' : 'off topic');
    context.notify({ type: 'moderation', agent: speaker, passed, reason });
    return { passed, reason };
  } catch (error) {
    // A moderator that cannot be reached must not silence the debate: the statement stands.
    if (
      error instanceof Error &&
      error.name === 'ProviderError' &&
      (error as { kind?: string }).kind === 'cancelled'
    ) {
      throw error;
    }
    context.logger.warn(
      { speaker, error: error instanceof Error ? error.message : String(error) },
      'moderation skipped',
    );
    return { passed: true, reason: 'moderation unavailable' };
  }
}
