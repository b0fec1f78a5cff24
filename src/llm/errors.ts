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
  constructor(
    kind: ProviderErrorKind,
    message: string,
    details: { host: string; model?: string; status?: number; cause?: unknown },
  ) {
    super(message, { exitCode: EXIT_CODES[kind], cause: details.cause });
    this.kind = kind;
    this.isRetryable = RETRYABLE[kind];
    this.status = details.status;
    this.model = details.model;
    this.host = details.host;
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
