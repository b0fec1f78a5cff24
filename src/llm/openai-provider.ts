/**
 * The adapter for OpenAI-compatible servers (llama.cpp's llama-server, vLLM, SGLang, LM Studio):
 * `POST <base>/chat/completions`, always streamed, with `max_tokens`, `temperature`, `seed`, usage
 * in the last chunk (`stream_options.include_usage`) and `cache_prompt: true`, which llama-server
 * honours and the others ignore. These servers fix the context window at start-up, so no window is
 * sent; `contextWindow(model)` reads it from the server instead. Every failure becomes a typed
 * ProviderError. The API key goes into the Authorization header and nowhere else.
 */
import type { Logger } from 'pino';
import type { ChatTap } from './chat-tap.js';
import { deadline } from './deadline.js';
import { ProviderError, type ProviderErrorKind } from './errors.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './ollama-provider.js';
import {
  getJson,
  type OpenAiChunk,
  OpenAiStatusError,
  OpenAiStreamError,
  streamChatCompletion,
} from './openai-chat-stream.js';
import type { ChatOptions, ChatRequest, ChatResult, ModelInfo, ModelProvider } from './provider.js';

export interface OpenAiProviderOptions {
  /** Base URL of the API, usually ending in `/v1`, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`; never logged or written anywhere. */
  apiKey?: string;
  /** Upper bound for one request, from sending it to the last token. */
  requestTimeoutMs?: number;
  logger?: Logger;
  /** Sees every chat on the wire (`--record`); never the headers, so never the key. */
  tap?: ChatTap;
}

interface ModelList {
  data?: Array<{ id?: unknown; owned_by?: unknown; max_model_len?: unknown }>;
}

const CONTEXT_MESSAGE = /context (length|size|window)|maximum context|too long|exceeds/i;

/** The base URL without a trailing slash. */
export function normalizeBaseUrl(raw: string): string {
  const url = new URL(raw.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`unsupported scheme "${url.protocol}" (use http:// or https://)`);
  }
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

export class OpenAiProvider implements ModelProvider {
  readonly host: string;
  private readonly apiKey: string | undefined;
  private readonly requestTimeoutMs: number;
  private readonly logger: Logger | undefined;
  private readonly tap: ChatTap | undefined;
  private models: Promise<ModelList> | undefined;

  constructor(options: OpenAiProviderOptions) {
    this.host = normalizeBaseUrl(options.baseUrl);
    this.apiKey = options.apiKey === '' ? undefined : options.apiKey;
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.logger = options.logger;
    this.tap = options.tap;
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResult> {
    const limitMs = Math.min(options.timeoutMs ?? this.requestTimeoutMs, this.requestTimeoutMs);
    const limit = deadline(limitMs, options.signal);
    const started = Date.now();
    let firstTokenAt: number | undefined;
    let text = '';
    let finish: string | undefined;
    let usage: OpenAiChunk['usage'];
    let timings: OpenAiChunk['timings'];
    try {
      const body = {
        model: request.model,
        messages: request.messages,
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: request.maxTokens,
        temperature: request.temperature,
        seed: request.seed,
        cache_prompt: true,
        ...(request.jsonSchema
          ? {
              response_format: {
                type: 'json_schema',
                json_schema: { name: 'answer', schema: request.jsonSchema, strict: true },
              },
            }
          : {}),
      };
      const { done } = await streamChatCompletion(
        this.host,
        this.apiKey,
        body,
        limit.signal,
        (chunk) => {
          for (const choice of chunk.choices ?? []) {
            const piece = choice.delta?.content ?? '';
            if (piece !== '') {
              firstTokenAt ??= Date.now();
              text += piece;
              options.onDelta?.(piece);
            }
            if (choice.finish_reason) finish = choice.finish_reason;
          }
          if (chunk.usage) usage = chunk.usage;
          if (chunk.timings) timings = chunk.timings;
        },
        this.tap,
      );
      // A stream that ended cleanly after its finish reason is whole even without `[DONE]`.
      if (!done && finish === undefined) {
        throw this.fail('stream-incomplete', 'the stream ended before the server said it was done', request);
      }
      const ended = Date.now();
      const cached = usage?.prompt_tokens_details?.cached_tokens ?? timings?.cache_n;
      const result: ChatResult = {
        text,
        model: request.model,
        promptTokens: usage?.prompt_tokens ?? 0,
        ...(typeof cached === 'number' ? { cachedPromptTokens: cached } : {}),
        outputTokens: usage?.completion_tokens ?? 0,
        stopReason: finish === 'length' ? 'length' : 'stop',
        // These servers report no durations in the OpenAI format; llama-server adds its own timings.
        timings: {
          totalMs: ended - started,
          loadMs: 0,
          promptEvalMs: timings?.prompt_ms ?? (firstTokenAt ?? ended) - started,
          evalMs: timings?.predicted_ms ?? ended - (firstTokenAt ?? ended),
        },
      };
      this.logger?.debug(
        {
          model: request.model,
          promptTokens: result.promptTokens,
          cachedPromptTokens: result.cachedPromptTokens,
          outputTokens: result.outputTokens,
          ms: ended - started,
        },
        'chat done',
      );
      return result;
    } catch (error) {
      throw this.classify(error, request.model, {
        timedOut: limit.timedOut(),
        caller: options.signal,
        limitMs,
      });
    } finally {
      limit.dispose();
    }
  }

  async listModels(options: { signal?: AbortSignal } = {}): Promise<ModelInfo[]> {
    const list = await this.modelList(options.signal);
    return (list.data ?? [])
      .filter((entry) => typeof entry.id === 'string')
      .map((entry) => ({ name: entry.id as string }));
  }

  /** The first model's `owned_by` (e.g. `llamacpp`, `vllm`), or `openai-compatible`. */
  async version(options: { signal?: AbortSignal } = {}): Promise<string> {
    const list = await this.modelList(options.signal);
    const owner = list.data?.find((entry) => typeof entry.owned_by === 'string')?.owned_by;
    return typeof owner === 'string' && owner !== '' ? owner : 'openai-compatible';
  }

  /**
   * vLLM lists `max_model_len` per model in `/models`; llama-server gives `n_ctx` in `/props` at the
   * server's root (beside `/v1`). Undefined when neither says.
   */
  async contextWindow(model: string, options: { signal?: AbortSignal } = {}): Promise<number | undefined> {
    const list = await this.modelList(options.signal);
    const listed = list.data?.find((entry) => entry.id === model)?.max_model_len;
    if (typeof listed === 'number' && listed > 0) return listed;
    const root = this.host.replace(/\/v1$/, '');
    const props = await this.timed(options.signal, (signal) => getJson(`${root}/props`, this.apiKey, signal))
      .then((answer) => answer as { default_generation_settings?: { n_ctx?: unknown }; n_ctx?: unknown })
      .catch(() => undefined);
    const nCtx = props?.default_generation_settings?.n_ctx ?? props?.n_ctx;
    return typeof nCtx === 'number' && nCtx > 0 ? nCtx : undefined;
  }

  /** `/models`, fetched once per provider: it says which models there are and their windows. */
  private modelList(signal: AbortSignal | undefined): Promise<ModelList> {
    if (this.models) return this.models;
    const pending = this.timed(signal, (limited) => getJson(`${this.host}/models`, this.apiKey, limited))
      .then((answer) => answer as ModelList)
      .catch((error: unknown) => {
        this.models = undefined;
        throw error;
      });
    this.models = pending;
    return pending;
  }

  private async timed<T>(caller: AbortSignal | undefined, task: (signal: AbortSignal) => Promise<T>) {
    const limitMs = Math.min(this.requestTimeoutMs, 30_000);
    const limit = deadline(limitMs, caller);
    try {
      return await task(limit.signal);
    } catch (error) {
      throw this.classify(error, undefined, { timedOut: limit.timedOut(), caller, limitMs });
    } finally {
      limit.dispose();
    }
  }

  private fail(
    kind: ProviderErrorKind,
    message: string,
    request?: { model: string },
    status?: number,
    cause?: unknown,
  ) {
    return new ProviderError(kind, this.redact(message), {
      host: this.host,
      model: request?.model,
      status,
      cause,
    });
  }

  /** A server that echoes the request back in an error must not carry the key into a message. */
  private redact(message: string): string {
    return this.apiKey ? message.split(this.apiKey).join('[api key]') : message;
  }

  private classify(
    error: unknown,
    model: string | undefined,
    signals: { timedOut: boolean; caller: AbortSignal | undefined; limitMs: number },
  ): ProviderError {
    if (error instanceof ProviderError) return error;
    const request = model ? { model } : undefined;
    const forModel = model ? ` (model ${model})` : '';
    const where = `the OpenAI-compatible server at ${this.host}`;
    if (signals.caller?.aborted) {
      return this.fail('cancelled', `the request${forModel} was cancelled`, request, undefined, error);
    }
    if (signals.timedOut) {
      const seconds = Math.round(signals.limitMs / 1000);
      return this.fail(
        'timeout',
        `${where} did not finish within ${seconds} s${forModel}`,
        request,
        undefined,
        error,
      );
    }
    const failure = error as { message?: string; code?: string; cause?: { code?: string } };
    const message = failure.message ?? String(error);
    if (error instanceof OpenAiStatusError) {
      const status = error.status;
      if (status === 400 && CONTEXT_MESSAGE.test(message)) {
        return this.fail(
          'bad-request',
          `the prompt does not fit the context window of ${where}${forModel}: ${message}. Lower model_options.context_window, or start the server with a larger window (llama-server -c, vLLM --max-model-len)`,
          request,
          status,
          error,
        );
      }
      if (status === 401 || status === 403) {
        return this.fail(
          'bad-request',
          `${where} refused the request (HTTP ${status}: ${message}); check the API key in the environment variable the scenario's api_key_env names`,
          request,
          status,
          error,
        );
      }
      if (status === 404) {
        if (!model) {
          return this.fail(
            'unreachable',
            `no OpenAI-compatible API at ${this.host} (HTTP 404: ${message}); base_url usually ends in /v1`,
            undefined,
            status,
            error,
          );
        }
        return this.fail(
          'model-not-found',
          `model "${model}" is not served by ${where} (${message}); load it there, or pick one the server lists`,
          request,
          status,
          error,
        );
      }
      if (status === 400 || status === 422) {
        return this.fail(
          'bad-request',
          `${where} refused the request${forModel}: ${message}`,
          request,
          status,
          error,
        );
      }
      if (status === 429 || status === 503) {
        return this.fail('busy', `${where} is busy${forModel}: ${message}`, request, status, error);
      }
      return this.fail(
        'server-error',
        `${where} failed${forModel} (HTTP ${status}): ${message}`,
        request,
        status,
        error,
      );
    }
    if (error instanceof OpenAiStreamError) {
      return this.fail(
        'server-error',
        `${where} reported an error${forModel}: ${message}`,
        request,
        undefined,
        error,
      );
    }
    const code = failure.cause?.code ?? failure.code;
    if (
      code === 'ECONNREFUSED' ||
      code === 'ENOTFOUND' ||
      code === 'EAI_AGAIN' ||
      code === 'EHOSTUNREACH' ||
      (code === 'ECONNRESET' && !model)
    ) {
      return this.fail(
        'unreachable',
        `cannot reach ${where} (${code}); start it, or correct base_url in the scenario's providers`,
        request,
        undefined,
        error,
      );
    }
    if (/terminated|socket|other side closed|ECONNRESET|aborted/i.test(message + (code ?? ''))) {
      return this.fail(
        'stream-incomplete',
        `the answer from ${where} was cut off before it finished${forModel}`,
        request,
        undefined,
        error,
      );
    }
    return this.fail('server-error', `${where} failed${forModel}: ${message}`, request, undefined, error);
  }
}
