/**
 * A person's turn, written for a person: the motion, their side, what their opponent just said and
 * what they are asked to do, taken from the request a model in their seat would get. The parts a
 * model needs and a person does not (the rules of the conversation, "write without headings")
 * are left out; nothing is added that the model would not be told.
 */
/** A message of the request, as far as a person's view needs it. */
type ChatMessage = { content: string };

export interface PersonTask {
  motion?: string;
  name?: string;
  side?: string;
  /** The opponent's latest statement, with who made it. */
  opponent?: { speaker: string; text: string };
  /** The task as a model would get it, from "Your task" on, less the lines written for models. */
  task: string;
}

/** Lines that tell a model how to write, which a person does not need. */
const FOR_MODELS = [/^Speak as a debater\b/, /^Reply with\b/];

export function personTask(messages: readonly ChatMessage[]): PersonTask {
  const all = messages.map((message) => message.content).join('\n\n');
  const last = messages.at(-1)?.content ?? '';
  const motion = /^Motion: (.+)$/m.exec(all)?.[1]?.trim();
  const name = /^Your name: (.+)$/m.exec(last)?.[1]?.trim();
  const side = /^You argue for: (.+)$/m.exec(last)?.[1]?.trim();
  const at = last.search(/^## Your task/m);
  const task = (at >= 0 ? last.slice(at) : last)
    .split('\n')
    .filter((line) => !FOR_MODELS.some((pattern) => pattern.test(line.trim())))
    .join('\n')
    .replace(/^## /gm, '')
    .trim();
  const opponent = lastStatementNotBy(messages, name);
  return {
    ...(motion ? { motion } : {}),
    ...(name ? { name } : {}),
    ...(side ? { side } : {}),
    ...(opponent ? { opponent } : {}),
    task,
  };
}

/**
 * The last `**Speaker** (Position ...):` statement of the debate so far whose speaker is not
 * `name`, read message by message: a statement ends with its message, or where the next section
 * or a moderator's line begins.
 */
function lastStatementNotBy(
  messages: readonly ChatMessage[],
  name: string | undefined,
): PersonTask['opponent'] {
  const heading = /^\*\*(.+?)\*\* \((?:Position|side)[^)]*\):\s*$/gm;
  let found: PersonTask['opponent'];
  for (const { content } of messages) {
    const blocks: { speaker: string; start: number; end: number }[] = [];
    for (let match = heading.exec(content); match; match = heading.exec(content)) {
      const previous = blocks.at(-1);
      if (previous) previous.end = match.index;
      blocks.push({ speaker: match[1] as string, start: match.index + match[0].length, end: content.length });
    }
    for (const block of blocks) {
      if (block.speaker === name) continue;
      const body = content.slice(block.start, block.end);
      const stop = body.search(/^(#{2,3} |```|Moderator: )/m);
      const statement = (stop >= 0 ? body.slice(0, stop) : body).trim();
      if (statement !== '') found = { speaker: block.speaker, text: statement };
    }
  }
  return found;
}

/** The turn as a person reads it on a terminal. */
export function personTaskText(task: PersonTask, limitWords: number): string {
  const lines: string[] = ['', '=== Your turn at the podium ==='];
  if (task.motion) lines.push(`Motion: ${task.motion}`);
  if (task.name || task.side) {
    lines.push(`You speak as ${task.name ?? 'yourself'}${task.side ? `, for ${task.side}` : ''}.`);
  }
  if (task.opponent) lines.push('', `${task.opponent.speaker} said:`, task.opponent.text);
  lines.push('', task.task, '');
  lines.push(
    `Your statement is cut after about ${limitWords} words (the speaking time a model in your seat gets).`,
    'Type it below; end it with a line holding only "." (or end the input).',
    '',
  );
  return lines.join('\n');
}
