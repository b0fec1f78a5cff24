/**
 * The OpenAI-compatible chat stream: `POST <base>/chat/completions` with `stream: true`, read as
 * server-sent events. Each event's `data:` is one JSON chunk; `data: [DONE]` ends the stream;
 * comment lines (which some proxies send to keep a long prefill's connection open; llama-server
 * sends none), `event:` and `id:` fields and blank lines carry nothing Agora needs. A server that
 * answers with one JSON completion instead of a stream is read as a stream of one chunk. Like the Ollama stream reader it uses
 * undici's `request` with its own timeouts off: the caller's signal bounds the whole call. Also like
 * it, it decodes the body's bytes with one streaming decoder for the whole answer (undici's body
 * ignores `setEncoding`), so a multi-byte character split between two network reads stays whole.
 */
import { StringDecoder } from 'node:string_decoder';
import { Agent, request } from 'undici';
import type { ChatTap, TappedCall } from './chat-tap.js';

const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 10_000 });

/** One chunk of an OpenAI-compatible chat stream (the fields Agora reads). */
export interface OpenAiChunk {
  choices?: Array<{ delta?: { content?: string | null }; finish_reason?: string | null }>;
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
  } | null;
  /** llama-server's own counters: `cache_n` prompt tokens reused from the cache, durations in ms. */
  timings?: { cache_n?: number; prompt_n?: number; prompt_ms?: number; predicted_ms?: number };
  error?: unknown;
}

/** The server answered with an HTTP error status; `message` is its error text when it gave one. */
export class OpenAiStatusError extends Error {
  override name = 'OpenAiStatusError';
  constructor(
    message: string,
    readonly status: number,
    /** The error answer as sent (llama-server puts numbers beside the message). */
    readonly body = '',
  ) {
    super(message);
  }
}

/**
 * The server reported an error inside a stream that had started well (`reported`: llama-server
 * does so when its output parser rejects what the model wrote), or sent an event that is not JSON.
 */
export class OpenAiStreamError extends Error {
  override name = 'OpenAiStreamError';
  constructor(
    message: string,
    readonly reported = false,
  ) {
    super(message);
  }
}

/**
 * The connection failed before any answer came back: refused, reset or closed by a server that
 * accepted it. `code` is the system's error code when there is one.
 */
export class OpenAiConnectionError extends Error {
  override name = 'OpenAiConnectionError';
  readonly code: string | undefined;
  constructor(cause: unknown) {
    const failure = cause as { message?: string; code?: string; cause?: { code?: string } };
    super(failure?.message ?? String(cause), { cause });
    this.code = failure?.code ?? failure?.cause?.code;
  }
}

/** The error text of an OpenAI-style (`{error: {message}}`), vLLM (`{message}`) or plain reply. */
export function errorMessageOf(text: string, status: number): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = parsed.error as { message?: unknown } | string | undefined;
    if (typeof error === 'string' && error !== '') return error;
    if (error && typeof error === 'object' && typeof error.message === 'string') return error.message;
    if (typeof parsed.message === 'string' && parsed.message !== '') return parsed.message;
    if (typeof parsed.detail === 'string' && parsed.detail !== '') return parsed.detail;
  } catch {
    // Not JSON: the text itself (trimmed) says what went wrong, if anything.
  }
  return text.trim().slice(0, 300) || `HTTP ${status}`;
}

/** Headers of every request: JSON, and the API key when there is one. */
export function requestHeaders(apiKey: string | undefined, accept: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept,
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  };
}

/** `GET <url>` returning parsed JSON; HTTP errors become OpenAiStatusError. */
export async function getJson(
  url: string,
  apiKey: string | undefined,
  signal: AbortSignal,
): Promise<unknown> {
  const response = await request(url, {
    method: 'GET',
    headers: requestHeaders(apiKey, 'application/json'),
    signal,
    dispatcher,
  });
  return jsonBody(response, url);
}

/** `POST <url>` with a JSON body, returning parsed JSON; HTTP errors become OpenAiStatusError. */
export async function postJson(
  url: string,
  apiKey: string | undefined,
  body: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  const response = await request(url, {
    method: 'POST',
    headers: requestHeaders(apiKey, 'application/json'),
    body: JSON.stringify(body),
    signal,
    dispatcher,
  });
  return jsonBody(response, url);
}

function parseData(data: string): OpenAiChunk {
  let chunk: OpenAiChunk;
  try {
    chunk = JSON.parse(data) as OpenAiChunk;
  } catch {
    throw new OpenAiStreamError(`malformed event in the stream: ${data.slice(0, 80)}`);
  }
  if (chunk === null || typeof chunk !== 'object') {
    throw new OpenAiStreamError(`malformed event in the stream: ${data.slice(0, 80)}`);
  }
  if (chunk.error !== undefined && chunk.error !== null) {
    throw new OpenAiStreamError(errorMessageOf(JSON.stringify({ error: chunk.error }), 200), true);
  }
  return chunk;
}

/** A whole (not streamed) `chat.completion` as the one chunk a stream would have carried. */
function completionAsChunk(text: string): OpenAiChunk {
  let parsed: {
    choices?: Array<{ message?: { content?: string | null }; finish_reason?: string | null }>;
    usage?: OpenAiChunk['usage'];
    timings?: OpenAiChunk['timings'];
    error?: unknown;
  };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new OpenAiStreamError(`not JSON: ${text.slice(0, 80)}`);
  }
  if (parsed === null || typeof parsed !== 'object')
    throw new OpenAiStreamError(`not JSON: ${text.slice(0, 80)}`);
  if (parsed.error !== undefined && parsed.error !== null) {
    throw new OpenAiStreamError(errorMessageOf(text, 200), true);
  }
  return {
    choices: (parsed.choices ?? []).map((choice) => ({
      delta: { content: choice.message?.content ?? null },
      finish_reason: choice.finish_reason ?? null,
    })),
    ...(parsed.usage ? { usage: parsed.usage } : {}),
    ...(parsed.timings ? { timings: parsed.timings } : {}),
  };
}

/**
 * A line longer than this is no part of a chat stream (each event carries a token or two): the
 * reader fails the call rather than hold a line that never ends in memory.
 */
export const MAX_EVENT_CHARS = 1024 * 1024;

/**
 * Sends `body` to `<base>/chat/completions` and hands each chunk to `onChunk` as it arrives.
 * Resolves with whether `data: [DONE]` was seen. When `onChunk` returns `'stop'` the request is
 * closed there and nothing more is read.
 */
export async function streamChatCompletion(
  base: string,
  apiKey: string | undefined,
  body: unknown,
  signal: AbortSignal,
  onChunk: (chunk: OpenAiChunk) => unknown,
  tap?: ChatTap,
): Promise<{ done: boolean }> {
  const text = JSON.stringify(body);
  const tapped = tap?.begin('openai', text);
  try {
    const result = await readCompletion(base, apiKey, text, signal, onChunk, tapped);
    tapped?.end();
    return result;
  } catch (error) {
    tapped?.end((error as Error).message ?? String(error));
    throw error;
  }
}

async function readCompletion(
  base: string,
  apiKey: string | undefined,
  body: string,
  signal: AbortSignal,
  onChunk: (chunk: OpenAiChunk) => unknown,
  tapped: TappedCall | undefined,
): Promise<{ done: boolean }> {
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(`${base}/chat/completions`, {
      method: 'POST',
      headers: requestHeaders(apiKey, 'text/event-stream'),
      body,
      signal,
      dispatcher,
    });
  } catch (error) {
    // Nothing came back: a refused or reset connection, unless the caller gave up first.
    if (signal.aborted) throw error;
    throw new OpenAiConnectionError(error);
  }
  tapped?.status(response.statusCode);
  if (response.statusCode < 200 || response.statusCode >= 300) {
    const text = await response.body.text().catch(() => '');
    tapped?.chunk(text);
    throw new OpenAiStatusError(errorMessageOf(text, response.statusCode), response.statusCode, text);
  }
  const type = String(response.headers['content-type'] ?? '');
  if (type.includes('application/json')) {
    const text = await response.body.text();
    tapped?.chunk(text);
    onChunk(completionAsChunk(text));
    return { done: true };
  }
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let data: string[] = [];
  let done = false;
  let stopped = false;
  // An event ends at a blank line; its `data:` lines join with newlines (the SSE rule).
  const dispatch = () => {
    if (data.length === 0 || done || stopped) return;
    const payload = data.join('\n');
    data = [];
    if (payload.trim() === '[DONE]') done = true;
    else if (onChunk(parseData(payload)) === 'stop') stopped = true;
  };
  const take = (raw: string) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') return dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    const value = colon === -1 ? '' : line.slice(colon + 1);
    data.push(value.startsWith(' ') ? value.slice(1) : value);
  };
  for await (const piece of response.body as AsyncIterable<Buffer>) {
    tapped?.chunk(piece);
    pending += decoder.write(piece);
    let newline = pending.indexOf('\n');
    if (newline === -1) {
      if (pending.length > MAX_EVENT_CHARS) {
        throw new OpenAiStreamError(`a line of more than ${MAX_EVENT_CHARS} characters in the stream`);
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
    if (stopped) return { done: false };
  }
  // The bytes of a character the stream cut off for good come out as U+FFFD.
  pending += decoder.end();
  if (pending !== '') take(pending);
  dispatch();
  return { done };
}

/** A whole answer's body as parsed JSON; HTTP errors become OpenAiStatusError. */
async function jsonBody(
  response: { statusCode: number; body: { text(): Promise<string> } },
  url: string,
): Promise<unknown> {
  const text = await response.body.text();
  if (response.statusCode < 200 || response.statusCode >= 300) {
    throw new OpenAiStatusError(errorMessageOf(text, response.statusCode), response.statusCode, text);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new OpenAiStreamError(`not JSON from ${url}: ${text.slice(0, 80)}`);
  }
}
