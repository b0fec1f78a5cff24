/**
 * The person at the podium, on a terminal or a pipe: each turn prints the task as a person reads
 * it, then reads lines until one holding only "." or the end of the input. On a terminal, each
 * line is followed by the words so far against the limit. Lines that arrive before they are asked
 * for (a pipe) wait in the input for the turn they belong to. Only so much of a statement is held
 * (`charactersRead`): a longer one is read to its end, the rest dropped, and the person told.
 */
import type { Readable, Writable } from 'node:stream';
import type { PersonInput } from '../llm/podium-provider.js';
import { personTask, personTaskText } from '../render/person-task.js';
import { BoundedLineReader } from './bounded-lines.js';
import { type PersonPace, turnLimitWords } from './person-pace.js';

/** "(120 of about 576 words; about 113 s of speaking time left)" */
export function wordCountLine(words: number, limitWords: number, secondsPerWord: number | undefined): string {
  const left =
    secondsPerWord === undefined
      ? ''
      : `; about ${Math.max(0, Math.round((limitWords - words) * secondsPerWord))} s of speaking time left`;
  return `(${words} of about ${limitWords} words${left})`;
}

/**
 * Characters of a statement read for each token of its cap: four times the four characters a
 * token of English text holds, room for long words. What the person sends past that, up to the
 * line that ends the statement, is read and dropped; the statement is cut at its cap anyway.
 */
export const CHARACTERS_READ_PER_TOKEN = 16;

/** How much of a statement capped at `maxTokens` is read. */
export function charactersRead(maxTokens: number): number {
  return Math.max(1024, maxTokens * CHARACTERS_READ_PER_TOKEN);
}

/** What the person is told when their statement was longer than what is read of it. */
export function droppedLine(read: number, dropped: number): string {
  return `(Your statement is longer than the ${read.toLocaleString('en-US')} characters read of it: the other ${dropped.toLocaleString('en-US')}, up to the line holding only ".", were dropped. What was read is cut at the limit like any statement.)\n`;
}

export function terminalPerson(
  input: Readable & { isTTY?: boolean },
  output: Writable & { isTTY?: boolean },
  pace: PersonPace = {},
): PersonInput & { close(): void } {
  const reader = new BoundedLineReader(input);
  return {
    close() {
      reader.close();
    },
    async statement(turn) {
      const task = personTask(turn.messages);
      const limitWords = turnLimitWords(turn.maxTokens, pace, task.wordLimit);
      // Model text is shown, never obeyed: control characters (escape sequences) are dropped.
      output.write(withoutControl(personTaskText(task, limitWords, pace.limitSeconds)));
      // Only so much of a statement is held, however much is sent: a line that never ends is read
      // to its end (or the input's) and the rest dropped.
      const room = charactersRead(turn.maxTokens);
      const written: string[] = [];
      let kept = 0;
      let dropped = 0;
      for (;;) {
        // Ctrl-C a second time, or a stop asked for while the person has not spoken, aborts the
        // turn: the run pauses at it, resumable.
        const line = await reader.line(Math.max(0, room - kept), turn.signal);
        if (turn.signal?.aborted) return undefined;
        if (line === undefined || line.onlyDot) break;
        dropped += line.dropped;
        if (kept < room) {
          written.push(line.text);
          kept += line.text.length + 1;
        }
        if (input.isTTY) {
          const words = written.join(' ').split(/\s+/).filter(Boolean).length;
          output.write(`  ${wordCountLine(words, limitWords, pace.secondsPerWord)}\n`);
        }
      }
      if (dropped > 0) output.write(droppedLine(room, dropped));
      const text = written.join('\n').trim();
      if (text === '') return undefined;
      return { text };
    },
  };
}

/** `text` without control characters other than newlines and tabs. */
function withoutControl(text: string): string {
  return [...text]
    .filter((char) => {
      const code = char.charCodeAt(0);
      return char === '\n' || char === '\t' || !(code < 0x20 || (code >= 0x7f && code < 0xa0));
    })
    .join('');
}
