/**
 * The OpenAI-compatible face of the simulator, as llama-server and vLLM show it: `/v1/models` (with
 * vLLM's `max_model_len`), `/props` (llama-server's `n_ctx`) and `/v1/chat/completions` streamed
 * as server-sent events, with usage, cached prompt tokens and `finish_reason`. Requests go through
 * the same script, faults, slots and prompt cache as the Ollama endpoints; only the wire differs.
 */
import type { ServerResponse } from 'node:http';
import type { Catalog, ModelEntry } from './catalog.js';
import type { Piece } from './chunks.js';
import type { Answer, CompletionRequest } from './completion.js';
import { sleepUntil, writeFlushed } from './http.js';
import type { SimulatedTimes } from './profiles.js';
import { renderChat } from './prompt-text.js';

const CREATED = 1_717_243_200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The id a model is listed under: its name without the implied `:latest`. */
export function openAiModelId(entry: ModelEntry): string {
  return entry.name.replace(/:latest$/, '');
}

/** The window the /v1 side gives a model: the server-wide setting, else the model's own length. */
export function openAiContextLength(entry: ModelEntry, configured: number | undefined): number {
  return configured ?? entry.contextLength;
}

/** The `/v1/models` body. */
export function openAiModels(catalog: Catalog, configured: number | undefined): object {
  return {
    object: 'list',
    data: catalog.list().map((entry) => ({
      id: openAiModelId(entry),
      object: 'model',
      created: CREATED,
      owned_by: 'agora-mock',
      max_model_len: openAiContextLength(entry, configured),
    })),
  };
}

/** The `/props` body of llama-server, which serves one model: the first in the catalog. */
export function openAiProps(catalog: Catalog, configured: number | undefined): object {
  const first = catalog.list()[0];
  const nCtx = first === undefined ? (configured ?? 4096) : openAiContextLength(first, configured);
  return {
    default_generation_settings: { n_ctx: nCtx },
    total_slots: 1,
    model_path: first === undefined ? '' : `/models/${openAiModelId(first)}.gguf`,
  };
}

/** Sends an error in the OpenAI shape: `{"error": {"message", "type", "code"}}`. */
export function sendOpenAiError(res: ServerResponse, status: number, message: string): void {
  const type = status === 404 ? 'not_found_error' : status === 400 ? 'invalid_request_error' : 'server_error';
  const text = JSON.stringify({ error: { message, type, code: status } });
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Reads a `/v1/chat/completions` body into the simulator's request; the window is set by the caller. */
export function parseOpenAiCompletion(body: unknown): CompletionRequest | { error: string } {
  if (!isRecord(body)) return { error: 'request body must be a JSON object' };
  if (typeof body.model !== 'string' || body.model.trim() === '') return { error: 'model is required' };
  const raw = body.messages;
  if (!Array.isArray(raw) || raw.length === 0) return { error: "'messages' must be a non-empty array" };
  if (!raw.every(isRecord)) return { error: 'each message must be an object' };
  const messages = raw.map((m) => ({
    role: typeof m.role === 'string' ? m.role : 'user',
    content: typeof m.content === 'string' ? m.content : '',
  }));
  const responseFormat = isRecord(body.response_format) ? body.response_format : undefined;
  const jsonSchema = isRecord(responseFormat?.json_schema) ? responseFormat.json_schema : undefined;
  const format =
    responseFormat?.type === 'json_schema' && isRecord(jsonSchema?.schema)
      ? jsonSchema.schema
      : responseFormat?.type === 'json_object'
        ? 'json'
        : undefined;
  const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : undefined;
  // Only what changes the text goes into options, so the answer is seeded like Ollama's.
  const options = Object.fromEntries(
    (['temperature', 'seed', 'top_p'] as const)
      .filter((key) => typeof body[key] === 'number')
      .map((key) => [key, body[key]]),
  );
  return {
    endpoint: 'chat',
    model: body.model,
    messages,
    lastText: messages.at(-1)?.content ?? '',
    rendered: renderChat(messages),
    stream: body.stream === true,
    format,
    options,
    numPredict: maxTokens !== undefined && maxTokens >= 0 ? Math.floor(maxTokens) : undefined,
    numCtx: undefined,
    think: false,
    keepAliveMs: 5 * 60_000,
    // These servers refuse a prompt longer than their window instead of cutting it.
    truncate: false,
  };
}

/** Whether the client asked for the usage chunk at the end of the stream. */
export function wantsUsage(body: unknown): boolean {
  return isRecord(body) && isRecord(body.stream_options) && body.stream_options.include_usage === true;
}

function chunk(model: string, choices: object[], extra: object = {}): string {
  const payload = {
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: CREATED,
    model,
    choices,
    ...extra,
  };
  return `data: ${JSON.stringify(payload)}\n\n`;
}

/** One content piece as an SSE event. */
export function openAiPieceEvent(model: string, text: string): string {
  return chunk(model, [{ index: 0, delta: { content: text }, finish_reason: null }]);
}

/** What the usage chunk and llama-server's timings report. */
export interface OpenAiNumbers {
  promptTokens: number;
  cachedTokens: number;
  times: SimulatedTimes;
}

function usageOf(answer: Answer, numbers: OpenAiNumbers): object {
  return {
    prompt_tokens: numbers.promptTokens,
    completion_tokens: answer.evalCount,
    total_tokens: numbers.promptTokens + answer.evalCount,
    prompt_tokens_details: { cached_tokens: numbers.cachedTokens },
  };
}

function timingsOf(answer: Answer, numbers: OpenAiNumbers): object {
  return {
    cache_n: numbers.cachedTokens,
    prompt_n: numbers.promptTokens - numbers.cachedTokens,
    prompt_ms: numbers.times.promptSeconds * 1000,
    predicted_n: answer.evalCount,
    predicted_ms: numbers.times.evalSeconds * 1000,
  };
}

/** Everything needed to send one answer the OpenAI way. */
export interface OpenAiDelivery {
  model: string;
  stream: boolean;
  usage: boolean;
  answer: Answer;
  pieces: Piece[];
  numbers: OpenAiNumbers;
  readyAt: number;
  msPerSecond: number;
  decodeTokensPerSecond: number;
}

/**
 * Sends the answer, paced like the Ollama delivery. The stream opens with a `: ping` comment, as
 * servers do to keep a long prefill's connection alive, so clients are tested on ignoring it.
 */
export async function deliverOpenAi(
  res: ServerResponse,
  plan: OpenAiDelivery,
  signal: AbortSignal,
): Promise<boolean> {
  const { times } = plan.numbers;
  if (!(await sleepUntil(plan.readyAt, signal))) return false;
  const decodeStart = Date.now() + times.promptSeconds * plan.msPerSecond;
  const msPerToken = plan.msPerSecond / plan.decodeTokensPerSecond;
  const finishReason = plan.answer.doneReason;
  if (!plan.stream) {
    if (!(await sleepUntil(decodeStart + plan.answer.evalCount * msPerToken, signal))) return false;
    const text = JSON.stringify({
      id: 'chatcmpl-mock',
      object: 'chat.completion',
      created: CREATED,
      model: plan.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: plan.answer.content },
          finish_reason: finishReason,
        },
      ],
      usage: usageOf(plan.answer, plan.numbers),
      timings: timingsOf(plan.answer, plan.numbers),
    });
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(text);
    return true;
  }
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  await writeFlushed(res, ': ping\n\n');
  if (!(await sleepUntil(decodeStart, signal))) return false;
  res.write(
    chunk(plan.model, [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
  );
  let emitted = 0;
  for (const piece of plan.pieces) {
    if (piece.kind !== 'content') continue;
    emitted += piece.tokens;
    if (plan.msPerSecond > 0 && !(await sleepUntil(decodeStart + emitted * msPerToken, signal))) return false;
    if (res.destroyed) return false;
    res.write(openAiPieceEvent(plan.model, piece.text));
  }
  if (!(await sleepUntil(decodeStart + plan.answer.evalCount * msPerToken, signal))) return false;
  const timings = { timings: timingsOf(plan.answer, plan.numbers) };
  res.write(chunk(plan.model, [{ index: 0, delta: {}, finish_reason: finishReason }], timings));
  if (plan.usage) res.write(chunk(plan.model, [], { usage: usageOf(plan.answer, plan.numbers) }));
  res.end('data: [DONE]\n\n');
  return true;
}
