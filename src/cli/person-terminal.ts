/**
 * The person at the podium, on a terminal or a pipe: each turn prints the task as a person reads
 * it, then reads lines until one holding only "." or the end of the input. On a terminal, each
 * line is followed by the words so far against the limit. Lines that arrive before they are asked
 * for (a pipe) wait for the turn they belong to.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { PersonInput } from '../llm/podium-provider.js';
import { personTask, personTaskText } from '../render/person-task.js';
import { type PersonPace, turnLimitWords } from './person-pace.js';

/** "(120 of about 576 words; about 113 s of speaking time left)" */
export function wordCountLine(words: number, limitWords: number, secondsPerWord: number | undefined): string {
  const left =
    secondsPerWord === undefined
      ? ''
      : `; about ${Math.max(0, Math.round((limitWords - words) * secondsPerWord))} s of speaking time left`;
  return `(${words} of about ${limitWords} words${left})`;
}

export function terminalPerson(
  input: Readable & { isTTY?: boolean },
  output: Writable & { isTTY?: boolean },
  pace: PersonPace = {},
): PersonInput & { close(): void } {
  const lines: string[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const reader = createInterface({ input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
  reader.on('line', (line) => {
    lines.push(line);
    wake?.();
  });
  reader.on('close', () => {
    ended = true;
    wake?.();
  });
  const nextLine = async (): Promise<string | undefined> => {
    while (lines.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
    return lines.shift();
  };
  return {
    close() {
      reader.close();
    },
    async statement(turn) {
      // Ctrl-C a second time aborts the turn: the run pauses at it, resumable.
      turn.signal?.addEventListener('abort', () => wake?.(), { once: true });
      const task = personTask(turn.messages);
      const limitWords = turnLimitWords(turn.maxTokens, pace, task.wordLimit);
      // Model text is shown, never obeyed: control characters (escape sequences) are dropped.
      output.write(withoutControl(personTaskText(task, limitWords, pace.limitSeconds)));
      const written: string[] = [];
      for (;;) {
        if (turn.signal?.aborted) return undefined;
        const line = await nextLine();
        if (line === undefined || line.trim() === '.') break;
        written.push(line);
        if (input.isTTY) {
          const words = written.join(' ').split(/\s+/).filter(Boolean).length;
          output.write(`  ${wordCountLine(words, limitWords, pace.secondsPerWord)}\n`);
        }
      }
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
