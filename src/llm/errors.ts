/**
 * Provider errors. Each says whether trying again could help: network faults, timeouts, busy and
 * server errors are retryable; a missing model or a bad request is not.
 */
import { AgoraError, ExitCode, type ExitCodeValue } from '../core/errors.js';

export type ProviderErrorKind =
  | 'unreachable'
  | 'model-not-found'
  | 'bad-request'
  | 'busy'
  | 'server-error'
  | 'stream-incomplete'
  | 'timeout'
  | 'empty-answer'
  | 'context-overflow'
  | 'cache-full'
  | 'cancelled';

const RETRYABLE: Record<ProviderErrorKind, boolean> = {
  unreachable: true,
  'model-not-found': false,
  'bad-request': false,
  busy: true,
  'server-error': true,
  'stream-incomplete': true,
  timeout: true,
  // An empty answer is often a one-off (a thinking model that spent its budget thinking, a glitch).
  'empty-answer': true,
  // The same prompt overflows again: the caller re-fits it to the window instead (see fitted-call).
  'context-overflow': false,
  // The memory a server's slots share filled with other calls in flight: the same call sent again
  // with fewer beside it fits.
  'cache-full': true,
  cancelled: false,
};

const EXIT_CODES: Record<ProviderErrorKind, ExitCodeValue> = {
  unreachable: ExitCode.unreachable,
  'model-not-found': ExitCode.modelMissing,
  'bad-request': ExitCode.runFailed,
  busy: ExitCode.unreachable,
  'server-error': ExitCode.runFailed,
  'stream-incomplete': ExitCode.runFailed,
  timeout: ExitCode.runFailed,
  'empty-answer': ExitCode.runFailed,
  // The window is a setting (the scenario's, or the server's -c / --max-model-len).
  'context-overflow': ExitCode.config,
  'cache-full': ExitCode.runFailed,
  cancelled: ExitCode.interrupted,
};

/** A model call that failed. `kind` says how; `isRetryable` says whether a retry may succeed. */
export class ProviderError extends AgoraError {
  override name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  readonly isRetryable: boolean;
  readonly status: number | undefined;
  readonly model: string | undefined;
  readonly host: string;
  /**
   * The model's own output caused the failure (an error the server reported inside a 200 stream,
   * an empty answer): the identical request would fail the same way, so a retry changes its seed.
   */
  readonly causedByOutput: boolean;
  constructor(
    kind: ProviderErrorKind,
    message: string,
    details: { host: string; model?: string; status?: number; cause?: unknown; causedByOutput?: boolean },
  ) {
    super(message, { exitCode: EXIT_CODES[kind], cause: details.cause });
    this.kind = kind;
    this.isRetryable = RETRYABLE[kind];
    this.status = details.status;
    this.model = details.model;
    this.host = details.host;
    this.causedByOutput = details.causedByOutput ?? kind === 'empty-answer';
  }
}

/**
 * The server refused a prompt longer than its context window. llama-server says how many tokens
 * the prompt had and how large the window is (`exceed_context_size_error`, `n_prompt_tokens`,
 * `n_ctx`), vLLM says it in words; Ollama (with `truncate: false`) only says that it did not fit.
 */
export class ContextOverflowError extends ProviderError {
  override name = 'ContextOverflowError';
  /** Tokens the server counted in the prompt, when it said. */
  readonly promptTokens: number | undefined;
  /** The server's context window in tokens, when it said. */
  readonly contextWindow: number | undefined;
  /**
   * The window filled while the model was writing (the prompt was read): the server ran out of
   * room after `answerTokens` tokens of answer, so a shorter prompt or a smaller cap is needed.
   */
  readonly duringAnswer: boolean;
  /** Tokens of answer streamed before the window filled (with `duringAnswer`). */
  readonly answerTokens: number;
  constructor(
    message: string,
    details: {
      host: string;
      model?: string;
      status?: number;
      cause?: unknown;
      promptTokens?: number;
      contextWindow?: number;
      duringAnswer?: boolean;
      answerTokens?: number;
    },
  ) {
    super('context-overflow', message, details);
    this.promptTokens = details.promptTokens;
    this.contextWindow = details.contextWindow;
    this.duringAnswer = details.duringAnswer ?? false;
    this.answerTokens = details.answerTokens ?? 0;
  }
}

/**
 * A server whose slots share one cache (llama-server `--kv-unified`) ran out of it while other
 * calls were in flight there: the window it reports still holds the prompt and its answer, so the
 * call is sent again as it was, never cut. The server now takes fewer calls at once than were in
 * flight, so the call sent again has fewer beside it: that resend is not one of the call's retries.
 */
export class FullCacheError extends ProviderError {
  override name = 'FullCacheError';
  constructor(message: string, details: { host: string; model?: string; cause?: unknown }) {
    super('cache-full', message, details);
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
