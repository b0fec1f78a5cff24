/**
 * Safe model calls (SRS 3.2): retryable failures are retried with exponential backoff and full
 * jitter; a timeout is retried at least once; when a model keeps failing, the agent's fallback
 * models are tried in order. Non-retryable failures (bad request, cancelled) are not retried.
 * An answer with no text (HTTP 200, zero tokens or only whitespace) is a failed call, retried like
 * one. A model the server does not have on any of the agent's models is not papered over: that
 * error stops the run, as a missing model does at the start.
 */
import { isProviderError, ProviderError } from './errors.js';
import type { ChatOptions, ChatRequest, ChatResult, ModelProvider } from './provider.js';

export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
  maxBackoffMs: number;
}

export interface SafeCallOptions extends ChatOptions {
  policy: RetryPolicy;
  /** Models to try after `request.model`, in order. */
  fallbackModels?: readonly string[];
  onRetry?: (info: { model: string; attempt: number; delayMs: number; error: ProviderError }) => void;
  /** Injected for tests; defaults to a timer that the signal can cut short. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export interface SafeCallResult {
  result: ChatResult;
  model: string;
  attempts: number;
  fallbackFrom?: string;
}

/** Thrown when every attempt on every model failed; carries the last error and the attempt count. */
export class ModelCallFailed extends Error {
  override name = 'ModelCallFailed';
  readonly attempts: number;
  readonly last: ProviderError;
  constructor(last: ProviderError, attempts: number) {
    super(`${last.message} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`, { cause: last });
    this.last = last;
    this.attempts = attempts;
  }
}

export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** (retry - 1));
  // Full jitter keeps several clients from retrying in lockstep against one server.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export async function safeChat(
  provider: ModelProvider,
  request: ChatRequest,
  options: SafeCallOptions,
): Promise<SafeCallResult> {
  const models = [
    request.model,
    ...(options.fallbackModels ?? []).filter((model) => model !== request.model),
  ];
  const sleep = options.sleep ?? defaultSleep;
  let attempts = 0;
  let last: ProviderError | undefined;
  for (const model of models) {
    let timeouts = 0;
    for (let attempt = 1; ; attempt += 1) {
      attempts += 1;
      try {
        const result = await provider.chat({ ...request, model }, options);
        if (result.text.trim() === '') {
          throw new ProviderError(
            'empty-answer',
            `${model} returned an empty answer (${result.outputTokens} tokens)`,
            { host: provider.host, model },
          );
        }
        return model === request.model
          ? { result, model, attempts }
          : { result, model, attempts, fallbackFrom: request.model };
      } catch (error) {
        if (!isProviderError(error) || error.kind === 'cancelled' || options.signal?.aborted) throw error;
        last = error;
        if (error.kind === 'timeout') timeouts += 1;
        // A timeout gets a second chance even with attempts set to 1: a cold model load can cause it.
        const allowed = Math.max(options.policy.attempts, timeouts > 0 ? 2 : 1);
        if (!error.isRetryable || attempt >= allowed) break;
        const delayMs = backoffDelay(options.policy, attempt, options.random);
        options.onRetry?.({ model, attempt, delayMs, error });
        await sleep(delayMs, options.signal);
      }
    }
  }
  // Every model the agent may use is missing (the last one tried answered 404), or the server
  // cannot be reached at all after every retry: no answer can come until someone pulls the model or
  // starts the server, so the run stops here (resumable) instead of filling up with emergency
  // responses that other agents and judges would then answer and score.
  if (last?.kind === 'model-not-found' || last?.kind === 'unreachable') throw last;
  throw new ModelCallFailed(last as ProviderError, attempts);
}

/** The retry policy a scenario's `reliability` block sets. */
export function retryPolicyOf(reliability: {
  attempts: number;
  backoff_ms: number;
  max_backoff_ms: number;
}): RetryPolicy {
  return {
    attempts: reliability.attempts,
    backoffMs: reliability.backoff_ms,
    maxBackoffMs: reliability.max_backoff_ms,
  };
}
