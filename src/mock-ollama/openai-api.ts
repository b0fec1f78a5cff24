/**
 * The OpenAI-compatible face of the simulator, speaking as llama-server does (the bytes of a real
 * one are in the tests' fixtures): `/v1/chat/completions` streamed as server-sent events whose
 * first delta has `content: null`, one piece per delta, `finish_reason`, then a chunk with empty
 * `choices` carrying `usage` (cached prompt tokens included) and `timings`, then `data: [DONE]`,
 * with no comment lines; errors as `{"error": {"code", "message", "type"}}`, a prompt over the
 * window as `exceed_context_size_error` with its numbers (or vLLM's words, for that flavour).
 * Requests go through the same script, faults, slots and prompt cache as the Ollama endpoints.
 */
import type { ServerResponse } from 'node:http';
import type { Piece } from './chunks.js';
import type { Answer, CompletionRequest } from './completion.js';
import type { Pace } from './pace.js';
import type { SimulatedTimes } from './profiles.js';
import { renderChat } from './prompt-text.js';

const CREATED = 1_717_243_200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function sendBody(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Sends an error as llama-server does: `{"error": {"code", "message", "type"}}`. */
export function sendOpenAiError(res: ServerResponse, status: number, message: string): void {
  const type = status === 404 ? 'not_found_error' : status === 400 ? 'invalid_request_error' : 'server_error';
  sendBody(res, status, { error: { code: status, message, type } });
}

/** A prompt longer than the window, in the words of the server the simulator speaks like. */
export function sendOverflow(
  res: ServerResponse,
  flavour: 'llama-server' | 'vllm',
  promptTokens: number,
  contextWindow: number,
): void {
  if (flavour === 'vllm') {
    sendBody(res, 400, {
      object: 'error',
      message: `This model's maximum context length is ${contextWindow} tokens. However, your request has ${promptTokens} input tokens. Please reduce the length of the input messages.`,
      type: 'BadRequestError',
      param: null,
      code: 400,
    });
    return;
  }
  sendBody(res, 400, {
    error: {
      code: 400,
      message: `request (${promptTokens} tokens) exceeds the available context size (${contextWindow} tokens), try increasing it`,
      type: 'exceed_context_size_error',
      n_prompt_tokens: promptTokens,
      n_ctx: contextWindow,
    },
  });
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
  return chunk(model, [{ finish_reason: null, index: 0, delta: { content: text } }]);
}

/** The stream's first event: the role, and no content yet. */
export function openAiFirstEvent(model: string): string {
  return chunk(model, [{ finish_reason: null, index: 0, delta: { role: 'assistant', content: null } }]);
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
  pace: Pace;
}

/** Sends the answer, paced like the Ollama delivery. */
export async function deliverOpenAi(
  res: ServerResponse,
  plan: OpenAiDelivery,
  signal: AbortSignal,
): Promise<boolean> {
  const { pace } = plan;
  if (!(await pace.begin(signal))) return false;
  const finishReason = plan.answer.doneReason;
  if (!plan.stream) {
    if (!(await pace.reach(plan.answer.evalCount, signal))) return false;
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
  if (!(await pace.reach(0, signal))) return false;
  res.write(openAiFirstEvent(plan.model));
  let emitted = 0;
  for (const piece of plan.pieces) {
    if (piece.kind !== 'content') continue;
    emitted += piece.tokens;
    if (pace.paced && !(await pace.reach(emitted, signal))) return false;
    if (res.destroyed) return false;
    res.write(openAiPieceEvent(plan.model, piece.text));
  }
  if (!(await pace.reach(plan.answer.evalCount, signal))) return false;
  const timings = { timings: timingsOf(plan.answer, plan.numbers) };
  // llama-server puts its timings beside the usage, in a last chunk without choices.
  res.write(
    chunk(plan.model, [{ finish_reason: finishReason, index: 0, delta: {} }], plan.usage ? {} : timings),
  );
  if (plan.usage) {
    res.write(chunk(plan.model, [], { usage: usageOf(plan.answer, plan.numbers), ...timings }));
  }
  res.end('data: [DONE]\n\n');
  return true;
}
