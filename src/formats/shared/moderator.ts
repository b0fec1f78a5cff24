/** Strict mode's moderator: checks that a statement is on the motion and follows debate conventions. */
import { z } from 'zod';
import { type RetryPolicy, safeChat } from '../../llm/safe-call.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
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

const verdictSchema = z.object({
  on_topic: z.boolean(),
  follows_conventions: z.boolean(),
  problem: z.string(),
});

const verdictJsonSchema = (() => {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(verdictSchema) as Record<string, unknown>;
  return schema;
})();

export async function moderate(
  moderator: { model: string; motion: string },
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
            content: `You moderate a formal debate. Motion: ${moderator.motion}\nDebate conventions: address the motion, argue the assigned side, stay respectful, no personal attacks, no fabricated quotations, plain prose.`,
          },
          {
            role: 'user',
            content: `Check this statement by ${speaker} (${request.label}, ${request.heading}).\n\n${text}\n\nAnswer only with JSON: {"on_topic": true|false, "follows_conventions": true|false, "problem": "<empty when both are true, else what is wrong>"}`,
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
    const parsed = verdictSchema.safeParse(JSON.parse(result.text));
    if (!parsed.success) return { passed: true, reason: 'the moderator gave no usable answer' };
    const passed = parsed.data.on_topic && parsed.data.follows_conventions;
    const reason = passed
      ? ''
      : parsed.data.problem || (parsed.data.on_topic ? 'breaks debate conventions' : 'off topic');
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
