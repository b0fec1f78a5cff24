/**
 * Safe model calls (SRS 3.2): retryable failures are retried with exponential backoff and full
 * jitter; a timeout is retried at least once; when a model keeps failing, the agent's fallback
 * models are tried in order, and a model that failed every attempt of several calls in a row is
 * skipped for its fallback, with a single try now and then (see model-breaker.ts). Non-retryable
 * failures (bad request, cancelled) are not retried. An answer with no text (HTTP 200, zero tokens
 * or only whitespace) is a failed call, retried like one. A retry after a failure the model's own
 * output caused (an error inside the stream, an empty answer) is sent with another seed, derived
 * from the attempt, since the identical request would fail the same way. A model the server does
 * not have on any of the agent's models is not papered over: that error stops the run, as a
 * missing model does at the start. A prompt the server finds too long for its window is not retried
 * here: the caller re-fits it (see context/fitted-call.ts); a cache the server's slots share that
 * filled with other calls in flight is not a prompt too long: the same request is sent again,
 * with fewer calls beside it (see shared-cache.ts). A thinking model whose answer was all
 * thinking is retried, once, with a larger budget (twice the cap, within what the window leaves).
 * The result carries the tokens the server counted over every attempt.
 */
import { addUsage, type CallUsage, NO_USAGE, usageOf } from './call-usage.js';
import { ContextOverflowError, FullCacheError, isProviderError, ProviderError } from './errors.js';
import { breakerFor, type ModelBreaker } from './model-breaker.js';
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
  /** Injected for tests; defaults to the one kept for `provider`. */
  breaker?: ModelBreaker;
  /** The largest cap the window leaves room for, for a thinking model's larger budget. */
  maxTokensCeiling?: number;
}

export interface SafeCallResult {
  result: ChatResult;
  model: string;
  attempts: number;
  fallbackFrom?: string;
  /** Tokens the server counted over every attempt of this call, failed ones included. */
  usage: CallUsage;
}

/** Thrown when every attempt on every model failed; carries the last error and the attempt count. */
export class ModelCallFailed extends Error {
  override name = 'ModelCallFailed';
  readonly attempts: number;
  readonly last: ProviderError;
  /** Tokens the server counted on the attempts that did reach it (an empty answer, say). */
  readonly usage: CallUsage;
  constructor(last: ProviderError, attempts: number, usage: CallUsage = NO_USAGE) {
    super(`${last.message} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`, { cause: last });
    this.last = last;
    this.attempts = attempts;
    this.usage = usage;
  }
}

export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** (retry - 1));
  // Full jitter keeps several clients from retrying in lockstep against one server.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * The seed of the `variant`-th retry after failures the model's output caused: a 31-bit number
 * mixed from the call's own seed, the same on every run (variant 0 is the seed itself).
 */
export function retrySeed(seed: number, variant: number): number {
  if (variant === 0) return seed;
  let hash = (seed ^ Math.imul(variant, 0x9e3779b1)) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return ((hash ^ (hash >>> 16)) >>> 0) % 2 ** 31;
}

/**
 * The larger cap for a retry after an answer that was all thinking (the model thought, wrote
 * nothing, and stopped at its cap): twice the cap, within the window's room; undefined when the
 * budget was raised already, the model was not asked to think, or there is no more room.
 */
function allThinking(
  request: ChatRequest,
  result: ChatResult,
  maxTokens: number,
  raised: boolean,
  ceiling = Number.POSITIVE_INFINITY,
): number | undefined {
  if (raised || request.think !== true || (result.thinkingTokens ?? 0) === 0) return undefined;
  const larger = Math.min(maxTokens * 2, ceiling);
  return larger > maxTokens ? larger : undefined;
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

/** Tries of one model for a request that keeps timing out: the first, and one retry. */
const TIMEOUT_TRIES = 2;

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
  const breaker = options.breaker ?? breakerFor(provider);
  let attempts = 0;
  let usage = NO_USAGE;
  let last: ProviderError | undefined;
  // A thinking model that spent its whole cap thinking gets one retry with room to finish.
  let maxTokens = request.maxTokens;
  let budgetRaised = false;
  for (const [index, model] of models.entries()) {
    // The last model left is always tried; the breaker only picks among several.
    const decision = index < models.length - 1 ? breaker.decide(model) : 'try';
    if (decision === 'skip') {
      breaker.skipped(model);
      continue;
    }
    let timeouts = 0;
    let variant = 0;
    for (let attempt = 1; ; attempt += 1) {
      attempts += 1;
      try {
        const seed = retrySeed(request.seed, variant);
        const result = await provider.chat({ ...request, model, seed, maxTokens }, options);
        usage = addUsage(usage, usageOf(result, request.messages));
        if (result.text.trim() === '') {
          const larger = allThinking(request, result, maxTokens, budgetRaised, options.maxTokensCeiling);
          if (larger !== undefined) {
            budgetRaised = true;
            maxTokens = larger;
          }
          throw new ProviderError(
            'empty-answer',
            larger === undefined
              ? `${model} returned an empty answer (${result.outputTokens} tokens)`
              : `${model} spent all ${result.outputTokens} tokens thinking and wrote no answer; the retry may use ${larger}`,
            { host: provider.host, model },
          );
        }
        breaker.succeeded(model);
        return model === request.model
          ? { result, model, attempts, usage }
          : { result, model, attempts, fallbackFrom: request.model, usage };
      } catch (error) {
        if (!isProviderError(error) || error.kind === 'cancelled' || options.signal?.aborted) throw error;
        if (error instanceof ContextOverflowError) throw new ModelCallFailed(error, attempts, usage);
        last = error;
        // A cache the server's slots share, filled by the calls beside this one: the server now
        // takes fewer at once, and the same request goes again at once, not as one of its retries.
        if (error instanceof FullCacheError) {
          attempt -= 1;
          options.onRetry?.({ model, attempt, delayMs: 0, error });
          continue;
        }
        if (error.causedByOutput) variant += 1;
        if (error.kind === 'timeout') timeouts += 1;
        // A timed-out request is sent once more, then reported: the one retry covers a cold model
        // load, and a model that cannot answer in the time allowed twice will not the third time.
        // That second chance stands even with attempts set to 1.
        const spent =
          error.kind === 'timeout' ? timeouts >= TIMEOUT_TRIES : attempt >= options.policy.attempts;
        if (!error.isRetryable || decision === 'probe' || spent) break;
        const delayMs = backoffDelay(options.policy, attempt, options.random);
        options.onRetry?.({ model, attempt, delayMs, error });
        await sleep(delayMs, options.signal);
      }
    }
    breaker.failed(model);
  }
  // Every model the agent may use is missing (the last one tried answered 404), or the server
  // cannot be reached at all after every retry: no answer can come until someone pulls the model or
  // starts the server, so the run stops here (resumable) instead of filling up with emergency
  // responses that other agents and judges would then answer and score.
  if (last?.kind === 'model-not-found' || last?.kind === 'unreachable') throw last;
  throw new ModelCallFailed(last as ProviderError, attempts, usage);
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
