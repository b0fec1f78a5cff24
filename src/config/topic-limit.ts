/**
 * How long a topic may be, in characters. A motion or a question is one sentence, and the topic
 * travels in every prompt and fills every listing; a critique's problem statement is the task
 * itself and may take a few paragraphs. Longer material belongs in background knowledge or
 * context files.
 */
export const TOPIC_MAX_CHARS = 500;
/** A critique's problem statement (its topic), also given with `--problem-file`. */
export const PROBLEM_MAX_CHARS = 4000;

/** The topic length limit of a format. */
export function topicLimit(format: string): number {
  return format === 'critique' ? PROBLEM_MAX_CHARS : TOPIC_MAX_CHARS;
}
