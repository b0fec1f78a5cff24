/**
 * Where a prompt's shared rules (motion, positions, rules, background) go, by the chat template of
 * the model's family, so that a server's prefix cache serves them on every call.
 *
 * Most templates render the system message first (llama3, ChatML as qwen2.5 ships it, gemma, which
 * renders it as a user turn of its own, in place): there the rules stay a system message. Mistral's
 * templates (mistral, mistral-nemo, mistral-small in Ollama's library; Mistral's own Jinja
 * templates) put the system message into the LAST user turn instead. Ollama first merges
 * consecutive messages of one role, so a one-turn prompt still reads the rules first; but a prompt
 * with more turns (a judge's answer asked for again after a malformed one, a statement continued)
 * would move them after the conversation, and a server that does not merge (llama-server with
 * Jinja templates) moves them after the transcript on every call. For those families the rules
 * are sent as the first user message: on a one-turn prompt Ollama renders exactly the same text.
 */

/** `system`: a system message first; `first-user`: the first user message, no system message. */
export type RulesPlacement = 'system' | 'first-user';

/** Families whose template puts the system message into the last user turn (checked against the base name). */
const SYSTEM_IN_LAST_TURN: readonly RegExp[] = [/^mistral(?!-large)/];

/** The placement for a model name as given (`mistral`, `library/mistral:7b`, `mistral-nemo:12b`). */
export function rulesPlacementFor(model: string | undefined): RulesPlacement {
  if (model === undefined) return 'system';
  const name = model.trim().toLowerCase();
  const base = name.slice(name.lastIndexOf('/') + 1).split(':')[0] ?? name;
  return SYSTEM_IN_LAST_TURN.some((pattern) => pattern.test(base)) ? 'first-user' : 'system';
}
