/**
 * A person's turn, written for a person: the motion, their side, what their opponent just said and
 * what they are asked to do, taken from the request a model in their seat would get. The parts a
 * model needs and a person does not (the rules of the conversation, "write without headings")
 * are left out; nothing is added that the model would not be told.
 */
import { PERSON_TOKENS_PER_SECOND, TOKENS_PER_WORD } from '../llm/podium-provider.js';

/** The rate a person's words are timed at, where a statement has a time limit: about 169 a minute. */
const SPOKEN_WORDS_PER_MINUTE = Math.round((PERSON_TOKENS_PER_SECOND / TOKENS_PER_WORD) * 60);

/** A message of the request, as far as a person's view needs it. */
type ChatMessage = { role?: string; content: string };

export interface PersonTask {
  motion?: string;
  name?: string;
  side?: string;
  /** The opponent's latest statement, with who made it. */
  opponent?: { speaker: string; text: string };
  /** The person's own statement the task asks them to redo (shorter, or on the motion). */
  yours?: string;
  /** The word limit the task states, when it states one. */
  wordLimit?: number;
  /** The task as a model would get it, from "Your task" on, less the lines written for models. */
  task: string;
  /** The criteria the person's statements are scored on, a line each, where the rules give them for their side. */
  judgedOn?: string[];
}

/** Lines that tell a model how to write, which a person does not need. */
const FOR_MODELS = [/^Speak as a debater\b/, /^Speak in the first person\b/, /^Reply with\b/];

const TASK_HEADING = /^## Your task/m;

/**
 * The rules' section on how a side's debater is scored (a knockout's "How the debating Position Y
 * agent is judged"), its side, and the criteria lines under it.
 */
const JUDGED_SECTION = /^## How the debating (.+?) agent is judged\n([\s\S]*?)(?=^## |(?![\s\S]))/m;

export function personTask(messages: readonly ChatMessage[]): PersonTask {
  const all = messages.map((message) => message.content).join('\n\n');
  const last = messages.at(-1)?.content ?? '';
  // The request's task message; a request that asks again (a statement over its word limit, or
  // one the moderator sent back) ends with the instruction after the person's own statement.
  const asked =
    [...messages].reverse().find((message) => TASK_HEADING.test(message.content))?.content ?? last;
  const again = asked !== last;
  const motion = /^Motion: (.+)$/m.exec(all)?.[1]?.trim();
  const name = /^Your name: (.+)$/m.exec(asked)?.[1]?.trim();
  const side = /^You argue for: (.+)$/m.exec(asked)?.[1]?.trim();
  const at = last.search(TASK_HEADING);
  const task = (at >= 0 ? last.slice(at) : last)
    .split('\n')
    .filter((line) => !FOR_MODELS.some((pattern) => pattern.test(line.trim())))
    .join('\n')
    .replace(/^## /gm, '')
    .trim();
  const yours = again ? messages.at(-2)?.content.trim() : undefined;
  const wordLimit = Number(/\bthe limit is (\d+) words\b/.exec(again ? `${asked}\n${last}` : task)?.[1]);
  const opponent = lastStatementNotBy(messages, name, side);
  const judgedOn = criteriaFor(all, /^Your side: (.+)$/m.exec(asked)?.[1]?.trim());
  return {
    ...(motion ? { motion } : {}),
    ...(name ? { name } : {}),
    ...(side ? { side } : {}),
    ...(opponent ? { opponent } : {}),
    ...(yours ? { yours } : {}),
    ...(Number.isInteger(wordLimit) && wordLimit > 0 ? { wordLimit } : {}),
    task,
    ...(judgedOn ? { judgedOn } : {}),
  };
}

/** The criteria the rules in `text` score `position`'s debater on, when they give them. */
function criteriaFor(text: string, position: string | undefined): string[] | undefined {
  const section = JUDGED_SECTION.exec(text);
  if (!section || position === undefined || section[1] !== position) return undefined;
  const lines = (section[2] ?? '')
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => criterionForPerson(line.slice(2).trim()));
  return lines.length > 0 ? lines : undefined;
}

/**
 * A criterion line of the rules ("argument_strength (weight 0.4): What it is. [1 = ...; 5 = ...]")
 * as a person reads it: "Argument strength (weight 0.4): What it is. Scores: 1 = ...; 5 = ...".
 */
function criterionForPerson(line: string): string {
  const parts = /^([A-Za-z_][\w-]*) \(weight ([^)]+)\)(?:: (.*?))?(?: \[(.*)\])?$/.exec(line);
  if (!parts) return line;
  const [, key = '', weight, description, guide] = parts;
  const name = key.replace(/_/g, ' ');
  const title = `${name.charAt(0).toUpperCase()}${name.slice(1)} (weight ${weight})`;
  return [`${title}${description ? `: ${description}` : ''}`, guide ? `Scores: ${guide}` : '']
    .filter(Boolean)
    .join(' ');
}

/** Where a statement of the debate begins in a message, and whose it is. */
interface Marker {
  speaker: string;
  /** The side's label as the heading gives it, when it does. */
  label?: string;
  start: number;
  end: number;
  /** Where the statement stops: the next heading of this level or above, or a moderator's line. */
  stop: RegExp;
}

/**
 * The statements a request shows, in the order they appear:
 * - `**Speaker** (Position ...):` and `**Speaker** (arguing for ...):` blocks (a knockout's or a
 *   duel's transcript);
 * - `### Phase: Speaker (label)` blocks (a formal debate's "debate so far");
 * - `## Your opponent's ...` and `## The questions your opponent has put to you` sections (what a
 *   formal debate's phase shows of the other side).
 */
function markersOf(content: string): Marker[] {
  const found: Marker[] = [];
  const patterns: Array<{
    pattern: RegExp;
    stop: RegExp;
    read: (match: RegExpExecArray) => Omit<Marker, 'start' | 'end' | 'stop'>;
  }> = [
    {
      pattern: /^\*\*(.+?)\*\* \(((?:Position|side|Debater|arguing for)[^)]*)\):\s*$/gm,
      stop: /^(#{2,3} |```|Moderator: )/m,
      read: (match) => ({ speaker: match[1] as string, label: match[2] as string }),
    },
    {
      pattern: /^### [^:\n]+: (.+?) \((.*)\)(?: (?:asks|answers) .*)?$/gm,
      stop: /^(#{2,3} |```)/m,
      read: (match) => ({ speaker: match[1] as string, label: match[2] as string }),
    },
    {
      pattern: /^## (?:Your opponent's .+|The questions your opponent has put to you)$/gm,
      stop: /^(## |```)/m,
      read: () => ({ speaker: 'Your opponent' }),
    },
  ];
  for (const { pattern, stop, read } of patterns) {
    for (let match = pattern.exec(content); match; match = pattern.exec(content)) {
      found.push({ ...read(match), start: match.index + match[0].length, end: content.length, stop });
    }
  }
  found.sort((first, second) => first.start - second.start);
  // A statement also ends where the next one begins.
  for (const [index, marker] of found.entries()) {
    const next = found[index + 1];
    if (next) marker.end = content.lastIndexOf('\n', next.start - 1) + 1 || next.start;
  }
  return found;
}

/**
 * The last statement of the debate so far that is not the person's own (by their name, or by
 * their side's label where the debaters go by their sides), read message by message.
 */
function lastStatementNotBy(
  messages: readonly ChatMessage[],
  name: string | undefined,
  side: string | undefined,
): PersonTask['opponent'] {
  let found: PersonTask['opponent'];
  for (const { content } of messages) {
    for (const marker of markersOf(content)) {
      if (marker.speaker === name) continue;
      if (side && marker.label?.startsWith(`${side} (`)) continue;
      const body = content.slice(marker.start, marker.end);
      const stop = body.search(marker.stop);
      const statement = (stop >= 0 ? body.slice(0, stop) : body).trim();
      if (statement !== '') found = { speaker: marker.speaker, text: statement };
    }
  }
  return found;
}

/** The turn as a person reads it on a terminal; `limitSeconds` is the statement's time limit, if any. */
export function personTaskText(task: PersonTask, limitWords: number, limitSeconds?: number): string {
  const lines: string[] = ['', '=== Your turn at the podium ==='];
  if (task.motion) lines.push(`Motion: ${task.motion}`);
  if (task.name || task.side) {
    lines.push(`You speak as ${task.name ?? 'yourself'}${task.side ? `, for ${task.side}` : ''}.`);
  }
  if (task.opponent) lines.push('', `${task.opponent.speaker} said:`, task.opponent.text);
  if (task.yours) lines.push('', 'Your statement was:', task.yours);
  lines.push('', task.task, '');
  if (task.judgedOn) {
    lines.push('The judges score your statement from 1 (poor) to 5 (excellent) on:');
    for (const criterion of task.judgedOn) lines.push(`- ${criterion}`);
    lines.push('');
  }
  lines.push(
    limitSeconds === undefined
      ? `Your statement is cut after about ${limitWords} words (the speaking time a model in your seat gets).`
      : `Your statement is cut after about ${limitWords} words: the length a model in your seat may give, and ${limitSeconds} s of speaking time with your words timed at about ${SPOKEN_WORDS_PER_MINUTE} a minute, whichever ends first.`,
    'Type it below; end it with a line holding only "." (or end the input).',
    '',
  );
  return lines.join('\n');
}
