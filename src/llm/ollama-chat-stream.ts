/**
 * The chat stream: `POST /api/chat` with `stream: true`, read as newline-delimited JSON.
 *
 * It goes through undici's `request` (a Node stream) rather than the ollama client's `fetch` and
 * web streams: a debate makes thousands of these calls, and the web-stream path cost several
 * milliseconds of CPU and a dozen kilobytes of garbage per call, more than the rest of the engine
 * together (measured by `npm run bench:engine`). Lines are parsed once, as they arrive; a line that
 * is not JSON fails the call instead of being skipped. The ollama client still does everything else.
 *
 * Text: undici's body ignores `setEncoding` and yields bytes, and a network read can end partway
 * through a multi-byte character ("é", "—", an emoji). The bytes go through one streaming decoder
 * for the whole answer, which holds such a character's first bytes until the rest arrive, so it is
 * never decoded in halves (as two U+FFFD replacement characters).
 *
 * Timeouts: undici's own header and body timeouts are off (a CPU prefill of a long prompt can take
 * minutes before the first byte); the caller's signal bounds the whole call instead.
 */
import { StringDecoder } from 'node:string_decoder';
import { Agent, request } from 'undici';
import type { ChatTap, TappedCall } from './chat-tap.js';

const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 10_000 });

/** One line of Ollama's chat stream (the fields Agora reads). */
export interface ChatStreamPart {
  message?: { content?: string; thinking?: string };
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
  total_duration?: number;
  load_duration?: number;
  prompt_eval_duration?: number;
  eval_duration?: number;
  error?: string;
}

/** Ollama answered with an HTTP error status; `message` is its `error` text when it gave one. */
export class OllamaStatusError extends Error {
  override name = 'OllamaStatusError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Ollama reported an error inside a stream that had started well, or sent a line that is not JSON. */
export class OllamaStreamError extends Error {
  override name = 'OllamaStreamError';
}

function errorText(text: string, status: number): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error === 'string' && parsed.error !== '') return parsed.error;
  } catch {
    // Not JSON: the text itself (trimmed) says what went wrong, if anything.
  }
  return text.trim().slice(0, 300) || `HTTP ${status}`;
}

function parseLine(line: string): ChatStreamPart {
  let part: ChatStreamPart;
  try {
    part = JSON.parse(line) as ChatStreamPart;
  } catch {
    throw new OllamaStreamError(`malformed line in Ollama's stream: ${line.slice(0, 80)}`);
  }
  if (part === null || typeof part !== 'object') {
    throw new OllamaStreamError(`malformed line in Ollama's stream: ${line.slice(0, 80)}`);
  }
  if (typeof part.error === 'string') throw new OllamaStreamError(part.error);
  return part;
}

/**
 * A line longer than this is no part of a chat stream (each carries a token or two): the reader
 * fails the call rather than hold a line that never ends in memory.
 */
export const MAX_LINE_CHARS = 1024 * 1024;

/**
 * Sends `body` to `<host>/api/chat` and hands each streamed part to `onPart` as it arrives. Returns
 * the part that says `done`, or null when the stream ended without one. When `onPart` returns
 * `'stop'` the request is closed there and nothing more is read (it returns null then too).
 */
export async function streamChat(
  host: string,
  body: unknown,
  signal: AbortSignal,
  onPart: (part: ChatStreamPart) => unknown,
  tap?: ChatTap,
): Promise<ChatStreamPart | null> {
  const text = JSON.stringify(body);
  const tapped = tap?.begin('ollama', text);
  try {
    const done = await readChat(host, text, signal, onPart, tapped);
    tapped?.end();
    return done;
  } catch (error) {
    tapped?.end((error as Error).message ?? String(error));
    throw error;
  }
}

async function readChat(
  host: string,
  body: string,
  signal: AbortSignal,
  onPart: (part: ChatStreamPart) => unknown,
  tapped: TappedCall | undefined,
): Promise<ChatStreamPart | null> {
  const response = await request(`${host}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
    body,
    signal,
    dispatcher,
  });
  tapped?.status(response.statusCode);
  if (response.statusCode < 200 || response.statusCode >= 300) {
    const raw = await response.body.text().catch(() => '');
    tapped?.chunk(raw);
    throw new OllamaStatusError(errorText(raw, response.statusCode), response.statusCode);
  }
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let done: ChatStreamPart | null = null;
  let stopped = false;
  const take = (line: string) => {
    if (done !== null || stopped || line.trim() === '') return;
    const part = parseLine(line);
    if (onPart(part) === 'stop') stopped = true;
    else if (part.done === true) done = part;
  };
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    tapped?.chunk(chunk);
    pending += decoder.write(chunk);
    let newline = pending.indexOf('\n');
    if (newline === -1) {
      if (pending.length > MAX_LINE_CHARS) {
        throw new OllamaStreamError(`a line of more than ${MAX_LINE_CHARS} characters in Ollama's stream`);
      }
      continue;
    }
    let start = 0;
    while (newline !== -1 && !stopped) {
      take(pending.slice(start, newline));
      start = newline + 1;
      newline = pending.indexOf('\n', start);
    }
    pending = pending.slice(start);
    // Leaving the loop destroys the body, which closes the request: nothing more is read.
    if (stopped) return null;
  }
  // The bytes of a character the stream cut off for good come out as U+FFFD.
  pending += decoder.end();
  take(pending);
  return done;
}
