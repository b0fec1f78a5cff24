/**
 * The one interface the engine uses to talk to a model. The Ollama and OpenAI-compatible adapters
 * implement it; routing, retries, fallbacks and limiters wrap it. Nothing outside `src/llm/ollama-*`
 * and `src/llm/openai-*` speaks HTTP to a model server.
 */

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Hard cap on generated tokens (sent as `num_predict`). */
  maxTokens: number;
  /** Context window in tokens (sent as `num_ctx`); keep it constant per model. */
  contextWindow: number;
  temperature: number;
  seed: number;
  /** A JSON schema the answer must follow (Ollama `format`). */
  jsonSchema?: Record<string, unknown>;
  /** Send `think: true` to thinking models; default false. */
  think?: boolean;
}

export type StopReason = 'stop' | 'length';

export interface ChatResult {
  text: string;
  promptTokens: number;
  /** Prompt tokens the server reused from its prompt cache, when it says (OpenAI-compatible servers). */
  cachedPromptTokens?: number;
  outputTokens: number;
  stopReason: StopReason;
  /** Of `outputTokens`, those the model spent thinking (never part of `text`). */
  thinkingTokens?: number;
  /** Durations reported by the server, in milliseconds. */
  timings: { totalMs: number; loadMs: number; promptEvalMs: number; evalMs: number };
  model: string;
}

export interface ChatOptions {
  signal?: AbortSignal;
  /** Called with each piece of text as it streams in. */
  onDelta?: (text: string) => void;
  /** Overrides the provider's request timeout for this call (a statement's time limit). */
  timeoutMs?: number;
}

export interface ModelInfo {
  name: string;
}

export interface ModelProvider {
  /** Human-readable address, e.g. `http://127.0.0.1:11434`. */
  readonly host: string;
  chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResult>;
  listModels(options?: { signal?: AbortSignal }): Promise<ModelInfo[]>;
  version(options?: { signal?: AbortSignal }): Promise<string>;
  /**
   * The context window the server gives `model`, for servers that fix it at start-up
   * (llama-server, vLLM); undefined when the server does not say or takes it per request (Ollama).
   */
  contextWindow?(model: string, options?: { signal?: AbortSignal }): Promise<number | undefined>;
  /**
   * Tokens `text` comes to in `model`'s own tokenizer, for servers that offer one (llama-server's
   * `/tokenize`); undefined when the server has none.
   */
  countTokens?(model: string, text: string, options?: { signal?: AbortSignal }): Promise<number | undefined>;
  /**
   * How many requests the server serving `model` answers at once (llama-server's `total_slots`),
   * when it says; from then on the provider sends it no more chats at once than that.
   */
  slots?(model: string, options?: { signal?: AbortSignal }): Promise<number | undefined>;
  /**
   * True when the server answers a chat for any model name, whatever it lists (a llama-server
   * started with one model); undefined or false when a name must be one the server lists.
   */
  servesAnyModel?(options?: { signal?: AbortSignal }): Promise<boolean>;
  /**
   * Loads `model` without generating, with the window later calls will ask for (Ollama reloads a
   * model whose `num_ctx` changes), so the first call does not wait for the load. Servers that
   * load their models at start-up have no such method.
   */
  load?(model: string, options?: { contextWindow?: number; signal?: AbortSignal }): Promise<void>;
}
