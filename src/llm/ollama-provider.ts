/**
 * The Ollama adapter: the only code that speaks HTTP to Ollama (the official client for model
 * lists and versions, a lean stream reader for chats; see ollama-chat-stream.ts). Every chat
 * streams, always sends `num_predict`, a constant `num_ctx`, `seed`, `temperature`, `think` and
 * `truncate: false`, and turns every failure into a typed ProviderError.
 */
import { Ollama } from 'ollama';
import type { Logger } from 'pino';
import { AnswerCap } from './answer-cap.js';
import type { ChatTap } from './chat-tap.js';
import { overflowOf } from './context-overflow.js';
import { deadline } from './deadline.js';
import { ContextOverflowError, ProviderError, type ProviderErrorKind } from './errors.js';
import { OllamaStatusError, OllamaStreamError, streamChat } from './ollama-chat-stream.js';
import { createOllamaFetch } from './ollama-fetch.js';
import type { ChatOptions, ChatRequest, ChatResult, ModelInfo, ModelProvider } from './provider.js';
import { ThinkFilter } from './think-filter.js';

export interface OllamaProviderOptions {
  /** Normalised address, see `normalizeOllamaHost`. */
  host: string;
  /** Upper bound for one request, from sending it to the last token. */
  requestTimeoutMs?: number;
  logger?: Logger;
  /** Sees every chat on the wire (`--record`). */
  tap?: ChatTap;
}

const NANOSECONDS_PER_MS = 1e6;
export const DEFAULT_REQUEST_TIMEOUT_MS = 10 * 60 * 1000;

export class OllamaProvider implements ModelProvider {
  readonly host: string;
  private readonly requestTimeoutMs: number;
  private readonly logger: Logger | undefined;
  private readonly tap: ChatTap | undefined;

  constructor(options: OllamaProviderOptions) {
    this.host = options.host;
    this.tap = options.tap;
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.logger = options.logger;
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResult> {
    // A step's own limit (a formal statement's time limit) never extends the run's request timeout.
    const limitMs = Math.min(options.timeoutMs ?? this.requestTimeoutMs, this.requestTimeoutMs);
    const limit = deadline(limitMs, options.signal);
    const started = Date.now();
    const filter = new ThinkFilter();
    const cap = new AnswerCap(request.maxTokens);
    try {
      const body = {
        model: request.model,
        messages: request.messages,
        stream: true,
        think: request.think ?? false,
        ...(request.jsonSchema ? { format: request.jsonSchema } : {}),
        truncate: false,
        options: {
          num_predict: request.maxTokens,
          num_ctx: request.contextWindow,
          temperature: request.temperature,
          seed: request.seed,
        },
      };
      const last = await streamChat(
        this.host,
        body,
        limit.signal,
        (part) => {
          const thinking = part.message?.thinking ?? '';
          const piece = part.message?.content ?? '';
          if ((thinking !== '' || piece !== '') && !cap.admit(thinking.length + piece.length)) return 'stop';
          if (thinking !== '') filter.feedThinking(thinking);
          if (piece !== '') {
            const visible = filter.feed(piece);
            if (visible !== '') options.onDelta?.(visible);
          }
        },
        this.tap,
      );
      const tail = filter.end();
      if (tail !== '') options.onDelta?.(tail);
      if (cap.reached) return this.cut(request, filter, cap, started);
      if (last === null) {
        throw this.fail(
          'stream-incomplete',
          'the stream ended before Ollama said it was done',
          request.model,
        );
      }
      const outputTokens = last.eval_count ?? 0;
      const thinkingTokens = Math.min(filter.thinkingPieces, outputTokens);
      const result: ChatResult = {
        text: filter.answer,
        model: request.model,
        promptTokens: last.prompt_eval_count ?? 0,
        outputTokens,
        ...(thinkingTokens > 0 ? { thinkingTokens } : {}),
        stopReason: last.done_reason === 'length' ? 'length' : 'stop',
        timings: {
          totalMs: (last.total_duration ?? 0) / NANOSECONDS_PER_MS,
          loadMs: (last.load_duration ?? 0) / NANOSECONDS_PER_MS,
          promptEvalMs: (last.prompt_eval_duration ?? 0) / NANOSECONDS_PER_MS,
          evalMs: (last.eval_duration ?? 0) / NANOSECONDS_PER_MS,
        },
      };
      this.logger?.debug(
        {
          model: request.model,
          promptTokens: result.promptTokens,
          outputTokens: result.outputTokens,
          ms: Date.now() - started,
        },
        'chat done',
      );
      return result;
    } catch (error) {
      throw this.classify(error, request.model, {
        timeout: { aborted: limit.timedOut() },
        caller: options.signal,
        limitMs,
        contextWindow: request.contextWindow,
        answerTokens: cap.tokens,
      });
    } finally {
      limit.dispose();
    }
  }

  /**
   * The answer of a server that streamed past the cap: what came within it, marked as cut. The
   * server never said how many prompt tokens it read, so none are counted.
   */
  private cut(request: ChatRequest, filter: ThinkFilter, cap: AnswerCap, started: number): ChatResult {
    this.logger?.warn({ model: request.model, host: this.host }, cap.describe());
    const thinkingTokens = Math.min(filter.thinkingPieces, cap.tokens);
    const totalMs = Date.now() - started;
    return {
      text: filter.answer,
      model: request.model,
      promptTokens: 0,
      outputTokens: cap.tokens,
      ...(thinkingTokens > 0 ? { thinkingTokens } : {}),
      stopReason: 'length',
      timings: { totalMs, loadMs: 0, promptEvalMs: 0, evalMs: totalMs },
    };
  }

  /** Ollama's load request: a generate without a prompt, answered once the model is in memory. */
  async load(model: string, options: { contextWindow?: number; signal?: AbortSignal } = {}): Promise<void> {
    const timeout = AbortSignal.timeout(this.requestTimeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      const client = new Ollama({ host: this.host, fetch: createOllamaFetch(signal) });
      await client.generate({
        model,
        prompt: '',
        stream: false,
        ...(options.contextWindow === undefined ? {} : { options: { num_ctx: options.contextWindow } }),
      });
    } catch (error) {
      throw this.classify(error, model, { timeout, caller: options.signal });
    }
  }

  async listModels(options: { signal?: AbortSignal } = {}): Promise<ModelInfo[]> {
    const timeout = AbortSignal.timeout(Math.min(this.requestTimeoutMs, 30_000));
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      const client = new Ollama({ host: this.host, fetch: createOllamaFetch(signal) });
      const list = await client.list();
      return list.models.map((model) => ({ name: model.name }));
    } catch (error) {
      throw this.classify(error, undefined, { timeout, caller: options.signal });
    }
  }

  async version(options: { signal?: AbortSignal } = {}): Promise<string> {
    const timeout = AbortSignal.timeout(Math.min(this.requestTimeoutMs, 30_000));
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      const client = new Ollama({ host: this.host, fetch: createOllamaFetch(signal) });
      const answer = await client.version();
      return answer.version;
    } catch (error) {
      throw this.classify(error, undefined, { timeout, caller: options.signal });
    }
  }

  private fail(
    kind: ProviderErrorKind,
    message: string,
    model?: string,
    status?: number,
    cause?: unknown,
    causedByOutput?: boolean,
  ) {
    return new ProviderError(kind, message, { host: this.host, model, status, cause, causedByOutput });
  }

  private classify(
    error: unknown,
    model: string | undefined,
    signals: {
      timeout: { readonly aborted: boolean };
      caller: AbortSignal | undefined;
      limitMs?: number;
      /** The `num_ctx` the chat asked for: Ollama's overflow answer does not repeat it. */
      contextWindow?: number;
      /** Tokens of answer streamed before the failure. */
      answerTokens?: number;
    },
  ): ProviderError {
    if (error instanceof ProviderError) return error;
    const forModel = model ? ` (model ${model})` : '';
    if (signals.caller?.aborted)
      return this.fail('cancelled', `the request${forModel} was cancelled`, model, undefined, error);
    if (signals.timeout.aborted) {
      return this.fail(
        'timeout',
        `Ollama at ${this.host} did not finish within ${Math.round((signals.limitMs ?? this.requestTimeoutMs) / 1000)} s${forModel}`,
        model,
        undefined,
        error,
      );
    }
    const failure = error as {
      name?: string;
      message?: string;
      code?: string;
      status_code?: number;
      cause?: { code?: string; message?: string };
    };
    const message = failure.message ?? String(error);
    const status =
      error instanceof OllamaStatusError
        ? error.status
        : failure.name === 'ResponseError' && typeof failure.status_code === 'number'
          ? failure.status_code
          : undefined;
    if (status !== undefined) {
      if (status === 404 && model === undefined) {
        // No model was asked for: the address itself is wrong (a path such as /api, or not Ollama).
        const hint = 'give it as http://host:port (e.g. http://127.0.0.1:11434), without a path such as /api';
        return this.fail(
          'unreachable',
          `${this.host} has no Ollama API (404 Not Found); ${hint}`,
          model,
          status,
          error,
        );
      }
      if (status === 404) {
        const name = model ?? 'the model';
        return this.fail(
          'model-not-found',
          `model "${name}" is not available on the Ollama at ${this.host}; run \`ollama pull ${name}\` there, or pick another model`,
          model,
          status,
          error,
        );
      }
      const overflow = status === 400 ? overflowOf(message, message) : undefined;
      if (overflow && model !== undefined) {
        const window = overflow.contextWindow ?? signals.contextWindow;
        return new ContextOverflowError(
          `the prompt does not fit the context window${window === undefined ? '' : ` of ${window} tokens`} Ollama was asked for (model ${model}): ${message}`,
          {
            host: this.host,
            model,
            status,
            cause: error,
            ...overflow,
            ...(window === undefined ? {} : { contextWindow: window }),
          },
        );
      }
      if (status === 400)
        return this.fail(
          'bad-request',
          `Ollama refused the request${forModel}: ${message}`,
          model,
          status,
          error,
        );
      if (status === 503 || status === 429) {
        return this.fail(
          'busy',
          `Ollama at ${this.host} is busy${forModel}: ${message}`,
          model,
          status,
          error,
        );
      }
      return this.fail(
        'server-error',
        `Ollama at ${this.host} failed${forModel} (HTTP ${status}): ${message}`,
        model,
        status,
        error,
      );
    }
    // An `{"error"}` line or a malformed line in a stream that had started well: checked before the
    // connection-failure patterns below, which the server's own text could otherwise match.
    const reported = (inStream = false) =>
      this.fail(
        'server-error',
        `Ollama reported an error${forModel}: ${message}`,
        model,
        undefined,
        error,
        inStream,
      );
    // An error line inside a 200 stream comes from generating this answer: a retry changes the seed.
    if (error instanceof OllamaStreamError) {
      // The window filled while the model wrote: a prompt and cap to fit anew, not a retry.
      const overflow = model !== undefined ? overflowOf('', message) : undefined;
      if (overflow && model !== undefined) {
        return new ContextOverflowError(
          `the context window filled while ${model} was answering on the Ollama at ${this.host} (after ${signals.answerTokens ?? 0} tokens): ${message}`,
          {
            host: this.host,
            model,
            cause: error,
            ...overflow,
            ...(signals.contextWindow === undefined ? {} : { contextWindow: signals.contextWindow }),
            duringAnswer: true,
            answerTokens: signals.answerTokens ?? 0,
          },
        );
      }
      return reported(!/^malformed line/.test(message));
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
        `cannot reach Ollama at ${this.host} (${code}); start it with \`ollama serve\`, or set OLLAMA_HOST / --host to where it runs`,
        model,
        undefined,
        error,
      );
    }
    if (
      /did not receive done/i.test(message) ||
      /terminated|socket|other side closed|ECONNRESET/i.test(message + (code ?? ''))
    ) {
      return this.fail(
        'stream-incomplete',
        `Ollama's answer was cut off before it finished${forModel}`,
        model,
        undefined,
        error,
      );
    }
    if (failure.name === 'TypeError' && /fetch failed/i.test(message)) {
      return this.fail(
        'unreachable',
        `cannot reach Ollama at ${this.host} (${code ?? failure.cause?.message ?? message}); check OLLAMA_HOST or --host`,
        model,
        undefined,
        error,
      );
    }
    // Anything else, such as the ollama client's plain Error carrying the server's `error` text.
    return reported();
  }
}
