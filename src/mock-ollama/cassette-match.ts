/**
 * Does a request match a recorded call? The same API, model, messages and the options that change
 * an answer: the token cap, temperature, seed and the answer format. The first difference is
 * described so that a changed prompt reads as a clear failure: which message, and the text around
 * the first character that differs.
 */
import type { CassetteCall } from './cassette-format.js';

const AROUND = 30;

/** The options compared for each API, as paths into the body. */
const OPTIONS: Record<CassetteCall['api'], string[][]> = {
  ollama: [['options', 'num_predict'], ['options', 'temperature'], ['options', 'seed'], ['format']],
  openai: [['max_tokens'], ['temperature'], ['seed'], ['response_format']],
};

interface Message {
  role?: unknown;
  content?: unknown;
}

function at(body: unknown, keys: string[]): unknown {
  let value = body;
  for (const key of keys) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/** `text` around character `index`, quoted, with ellipses where it was cut. */
function excerpt(text: string, index: number): string {
  const start = Math.max(0, index - AROUND);
  const end = Math.min(text.length, index + AROUND);
  const inner = JSON.stringify(text.slice(start, end)).slice(1, -1);
  return `"${start > 0 ? '…' : ''}${inner}${end < text.length ? '…' : ''}"`;
}

/** The first difference between two texts, as "at character N: expected "…", received "…"". */
export function textDifference(expected: string, received: string): string {
  let index = 0;
  while (index < expected.length && index < received.length && expected[index] === received[index]) {
    index += 1;
  }
  return `at character ${index}: expected ${excerpt(expected, index)}, received ${excerpt(received, index)}`;
}

const show = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));

/** How `body` differs from the recorded call's request, or undefined when it matches. */
export function requestDifference(
  recorded: CassetteCall,
  api: CassetteCall['api'],
  body: unknown,
): string | undefined {
  if (recorded.api !== api) {
    return `the API differs: recorded ${recorded.api === 'ollama' ? '/api/chat' : '/v1/chat/completions'}, received ${api === 'ollama' ? '/api/chat' : '/v1/chat/completions'}`;
  }
  const model = at(body, ['model']);
  if (recorded.request.model !== model) {
    return `the model differs: expected ${show(recorded.request.model)}, received ${show(model)}`;
  }
  const expected = (Array.isArray(recorded.request.messages) ? recorded.request.messages : []) as Message[];
  const messages = at(body, ['messages']);
  const received = (Array.isArray(messages) ? messages : []) as Message[];
  for (let index = 0; index < Math.max(expected.length, received.length); index += 1) {
    const want = expected[index];
    const got = received[index];
    if (want === undefined || got === undefined) {
      return `the number of messages differs: expected ${expected.length}, received ${received.length}`;
    }
    if (want.role !== got.role) {
      return `messages[${index}] differs in its role: expected ${show(want.role)}, received ${show(got.role)}`;
    }
    const wantText = typeof want.content === 'string' ? want.content : JSON.stringify(want.content);
    const gotText = typeof got.content === 'string' ? got.content : JSON.stringify(got.content);
    if (wantText !== gotText) {
      return `messages[${index}] (${String(want.role)}) differs ${textDifference(wantText, gotText)}`;
    }
  }
  for (const keys of OPTIONS[api]) {
    const want = at(recorded.request, keys);
    const got = at(body, keys);
    if (JSON.stringify(want) !== JSON.stringify(got)) {
      return `${keys.join('.')} differs: expected ${show(want)}, received ${show(got)}`;
    }
  }
  return undefined;
}
