/**
 * The adapter for OpenAI-compatible servers (llama.cpp's llama-server, vLLM, SGLang, LM Studio):
 * `POST <base>/chat/completions`, always streamed, with `max_tokens`, `temperature`, `seed`, usage
 * in the last chunk (`stream_options.include_usage`) and `cache_prompt: true`, which llama-server
 * honours and the others ignore. These servers fix the context window at start-up, so no window is
 * sent; `contextWindow(model)` reads it from the server instead (llama-server: the window of one
 * slot), and no more chats go at once than the server has slots (a call gate). When slots that
 * share one cache fill it between them, the call that ran out of room is a FullCacheError, and
 * the gate lets fewer calls at once to the server for the rest of the run (shared-cache.ts).
 * Every failure becomes a typed ProviderError. The API key goes into the Authorization header and
 * nowhere else.
 */
import type { Logger } from 'pino';
import { AnswerCap } from './answer-cap.js';
import { CallGate } from './call-gate.js';
import type { ChatTap } from './chat-tap.js';
import { deadline } from './deadline.js';
import { FullCacheError, ProviderError } from './errors.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './ollama-provider.js';
import { getJson, type OpenAiChunk, postJson, streamChatCompletion } from './openai-chat-stream.js';
import { classifyOpenAiError } from './openai-errors.js';
import type { ChatOptions, ChatRequest, ChatResult, ModelInfo, ModelProvider } from './provider.js';
import { CallsInFlight, roomRanOut } from './shared-cache.js';

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
  /**
   * Told once, the first time a full shared cache lowers the calls sent at once to this server
   * (every lowering also goes to the log).
   */
  onFewerCalls?: (text: string) => void;
}

/** One entry of `/models`: vLLM adds `max_model_len`; llama-server `aliases` and `meta.n_ctx`. */
interface ListedModel {
  id?: unknown;
  owned_by?: unknown;
  max_model_len?: unknown;
  aliases?: unknown;
  meta?: { n_ctx?: unknown } | null;
}

interface ModelList {
  data?: ListedModel[];
}

/** The names an entry answers to: its id, then its aliases (every alias is a valid model name). */
function namesOf(entry: ListedModel): string[] {
  const aliases = Array.isArray(entry.aliases)
    ? entry.aliases.filter((alias): alias is string => typeof alias === 'string' && alias !== '')
    : [];
  return [...new Set([...(typeof entry.id === 'string' ? [entry.id] : []), ...aliases])];
}

const positiveNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && value > 0 ? value : undefined;

/** The base URL without a trailing slash. */
export function normalizeBaseUrl(raw: string): string {
  const url = new URL(raw.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`unsupported scheme "${url.protocol}" (use http:// or https://)`);
  }
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** llama-server's `/props`: the window of one slot and how many slots there are. */
interface ServerProps {
  default_generation_settings?: { n_ctx?: unknown };
  n_ctx?: unknown;
  total_slots?: unknown;
}

export class OpenAiProvider implements ModelProvider {
  readonly host: string;
  private readonly apiKey: string | undefined;
  private readonly requestTimeoutMs: number;
  private readonly logger: Logger | undefined;
  private readonly tap: ChatTap | undefined;
  private models: Promise<ModelList> | undefined;
  private props: Promise<ServerProps | undefined> | undefined;
  /** Holds chats to the server's slots once `slots()` has read how many it has. */
  private gate: CallGate | undefined;
  private slotsRead: Promise<unknown> | undefined;
  private readonly inFlight = new CallsInFlight();
  private readonly onFewerCalls: ((text: string) => void) | undefined;
  private toldFewerCalls = false;

  constructor(options: OpenAiProviderOptions) {
    this.host = normalizeBaseUrl(options.baseUrl);
    this.apiKey = options.apiKey === '' ? undefined : options.apiKey;
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.logger = options.logger;
    this.tap = options.tap;
    this.onFewerCalls = options.onFewerCalls;
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResult> {
    // More requests than slots would queue on the server, or share and overfill its cache: the
    // slots are read once, before the first chat, and the chats wait for a free one.
    this.slotsRead ??= this.slots(request.model, options).catch(() => undefined);
    await this.slotsRead;
    if (!this.gate) return this.tracked(request, options);
    const prompt = request.messages.map((message) => message.content).join('\n');
    return this.gate.run({ model: request.model, prompt }, () => this.tracked(request, options));
  }

  /** Calls at once this server is sent at most, once its slots were read; undefined for no limit. */
  get callsAtOnce(): number | undefined {
    return this.gate?.limit;
  }

  /** One chat, counted among the calls in flight, so a full shared cache is told from a small window. */
  private async tracked(request: ChatRequest, options: ChatOptions): Promise<ChatResult> {
    const call = this.inFlight.start();
    try {
      return await this.chatNow(request, options);
    } catch (error) {
      if (!roomRanOut(error) || call.overlap < 2) throw error;
      throw this.fewerCalls(error as ProviderError, request.model, call.overlap);
    } finally {
      this.inFlight.end(call);
    }
  }

  /**
   * The server ran out of room while `overlap` calls were in flight on it, though the window it
   * reports held this one: the cache its slots share filled. From now on it is sent fewer calls
   * at once (one fewer than filled it), and the call is to be sent again as it was.
   */
  private fewerCalls(error: ProviderError, model: string, overlap: number): FullCacheError {
    const before = this.gate?.limit ?? overlap;
    this.gate ??= new CallGate(before);
    const now = this.gate.lowerLimit(overlap - 1);
    const lowered = now < before;
    const text = `the server at ${this.host} ran out of the memory its slots share with ${overlap} calls in flight (the window it reports is for one call alone): it is sent at most ${now} call${now === 1 ? '' : 's'} at once for the rest of the run, and the call is sent again whole; start it with a larger -c or fewer slots (-np) to run more at once`;
    if (lowered) {
      this.logger?.warn({ host: this.host, model, inFlight: overlap, callsAtOnce: now }, text);
      if (!this.toldFewerCalls) this.onFewerCalls?.(text);
      this.toldFewerCalls = true;
    }
    return new FullCacheError(
      `the server at ${this.host} ran out of the memory its slots share with ${overlap} calls in flight (model ${model}): ${error.message}`,
      { host: this.host, model, cause: error },
    );
  }

  private async chatNow(request: ChatRequest, options: ChatOptions): Promise<ChatResult> {
    const limitMs = Math.min(options.timeoutMs ?? this.requestTimeoutMs, this.requestTimeoutMs);
    const limit = deadline(limitMs, options.signal);
    const started = Date.now();
    let firstTokenAt: number | undefined;
    let text = '';
    let finish: string | undefined;
    let usage: OpenAiChunk['usage'];
    let timings: OpenAiChunk['timings'];
    const cap = new AnswerCap(request.maxTokens);
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
            if (piece !== '' && !cap.admit(piece.length)) return 'stop';
            if (piece !== '') {
              firstTokenAt ??= Date.now();
              text += piece;
              options.onDelta?.(piece);
            }
            if (choice.finish_reason) finish = choice.finish_reason;
          }
          if (chunk.usage) usage = chunk.usage;
          if (chunk.timings) timings = chunk.timings;
          return undefined;
        },
        this.tap,
      );
      if (cap.reached) this.logger?.warn({ model: request.model, host: this.host }, cap.describe());
      // A stream that ended cleanly after its finish reason is whole even without `[DONE]`.
      if (!done && finish === undefined && !cap.reached) {
        throw new ProviderError('stream-incomplete', 'the stream ended before the server said it was done', {
          host: this.host,
          model: request.model,
        });
      }
      const ended = Date.now();
      const cached = usage?.prompt_tokens_details?.cached_tokens ?? timings?.cache_n;
      const result: ChatResult = {
        text,
        model: request.model,
        promptTokens: usage?.prompt_tokens ?? 0,
        ...(typeof cached === 'number' ? { cachedPromptTokens: cached } : {}),
        outputTokens: cap.reached ? cap.tokens : (usage?.completion_tokens ?? 0),
        // A stream the reader stopped at the cap is an answer cut there.
        stopReason: finish === 'length' || cap.reached ? 'length' : 'stop',
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
        answerTokens: cap.tokens,
      });
    } finally {
      limit.dispose();
    }
  }

  /** Every name the server answers to: each model's id and its aliases. */
  async listModels(options: { signal?: AbortSignal } = {}): Promise<ModelInfo[]> {
    const list = await this.modelList(options.signal);
    return (list.data ?? []).flatMap(namesOf).map((name) => ({ name }));
  }

  /** The first model's `owned_by` (e.g. `llamacpp`, `vllm`), or `openai-compatible`. */
  async version(options: { signal?: AbortSignal } = {}): Promise<string> {
    const list = await this.modelList(options.signal);
    const owner = list.data?.find((entry) => typeof entry.owned_by === 'string')?.owned_by;
    return typeof owner === 'string' && owner !== '' ? owner : 'openai-compatible';
  }

  /**
   * A llama-server started with one model answers a chat for any model name with that model (its
   * `/models` lists one entry, owned by `llamacpp`); vLLM and a llama-server serving several models
   * refuse names they do not list.
   */
  async servesAnyModel(options: { signal?: AbortSignal } = {}): Promise<boolean> {
    const list = await this.modelList(options.signal);
    return list.data?.length === 1 && list.data[0]?.owned_by === 'llamacpp';
  }

  /**
   * vLLM lists `max_model_len` per model in `/models`, llama-server `meta.n_ctx`; llama-server also
   * gives the window of one slot in `/props` at the server's root (beside `/v1`), and a request
   * must fit its slot, so the smaller of the two counts. Undefined when none says.
   */
  async contextWindow(model: string, options: { signal?: AbortSignal } = {}): Promise<number | undefined> {
    const list = await this.modelList(options.signal);
    const entry = list.data?.find((candidate) => namesOf(candidate).includes(model));
    const listed = positiveNumber(entry?.max_model_len) ?? positiveNumber(entry?.meta?.n_ctx);
    if (listed !== undefined && entry?.owned_by !== 'llamacpp') return listed;
    const props = await this.serverProps(options.signal);
    const slot = positiveNumber(props?.default_generation_settings?.n_ctx ?? props?.n_ctx);
    if (listed === undefined || slot === undefined) return listed ?? slot;
    return Math.min(listed, slot);
  }

  /**
   * llama-server's `total_slots`; once read, no more chats than that are sent at once. Undefined
   * (and no limit) when the server does not say.
   */
  async slots(_model?: string, options: { signal?: AbortSignal } = {}): Promise<number | undefined> {
    const props = await this.serverProps(options.signal);
    const slots = positiveNumber(props?.total_slots);
    // Read once: a limit a full cache lowered since stays lowered.
    if (slots !== undefined && Number.isInteger(slots) && this.gate === undefined) {
      this.gate = new CallGate(slots);
    }
    return slots;
  }

  /**
   * Tokens `text` comes to in the server's own tokenizer: llama-server's `/tokenize` (a list of
   * token ids) or vLLM's (a `count`). Undefined when the server has no such endpoint.
   */
  async countTokens(
    model: string,
    text: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<number | undefined> {
    const root = this.host.replace(/\/v1$/, '');
    const answer = (await this.timed(options.signal, (signal) =>
      postJson(`${root}/tokenize`, this.apiKey, { content: text, prompt: text, model }, signal),
    ).catch(() => undefined)) as { tokens?: unknown; count?: unknown } | undefined;
    if (Array.isArray(answer?.tokens)) return answer.tokens.length;
    return positiveNumber(answer?.count);
  }

  /** `/props` at the server's root, fetched once; undefined when the server has none. */
  private serverProps(signal: AbortSignal | undefined): Promise<ServerProps | undefined> {
    const root = this.host.replace(/\/v1$/, '');
    this.props ??= this.timed(signal, (limited) => getJson(`${root}/props`, this.apiKey, limited))
      .then((answer) => answer as ServerProps)
      .catch(() => undefined);
    return this.props;
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

  /** A server that echoes the request back in an error must not carry the key into a message. */
  private redact(message: string): string {
    return this.apiKey ? message.split(this.apiKey).join('[api key]') : message;
  }

  private classify(
    error: unknown,
    model: string | undefined,
    signals: { timedOut: boolean; caller: AbortSignal | undefined; limitMs: number; answerTokens?: number },
  ): ProviderError {
    return classifyOpenAiError(error, {
      host: this.host,
      model,
      ...signals,
      redact: (message) => this.redact(message),
    });
  }
}
