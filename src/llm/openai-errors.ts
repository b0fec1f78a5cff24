/**
 * How a failed call to an OpenAI-compatible server becomes a typed ProviderError: what went wrong,
 * whether a retry could help, whether the model's own output caused it, and what to do about it.
 */
import { overflowOf } from './context-overflow.js';
import { ContextOverflowError, ProviderError, type ProviderErrorKind } from './errors.js';
import { OpenAiConnectionError, OpenAiStatusError, OpenAiStreamError } from './openai-chat-stream.js';

/** Where the call went and how it ended, for the message. */
export interface OpenAiFailure {
  host: string;
  model: string | undefined;
  timedOut: boolean;
  caller: AbortSignal | undefined;
  limitMs: number;
  /** Hides the API key in any text a server echoed back. */
  redact: (message: string) => string;
  /** Tokens of answer streamed before the failure. */
  answerTokens?: number;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

export function classifyOpenAiError(error: unknown, call: OpenAiFailure): ProviderError {
  if (error instanceof ProviderError) return error;
  const { model, host } = call;
  const forModel = model ? ` (model ${model})` : '';
  const where = `the OpenAI-compatible server at ${host}`;
  const fail = (
    kind: ProviderErrorKind,
    message: string,
    extra: { status?: number; causedByOutput?: boolean } = {},
  ) =>
    new ProviderError(kind, call.redact(message), {
      host,
      ...(model ? { model } : {}),
      ...extra,
      cause: error,
    });
  if (call.caller?.aborted) return fail('cancelled', `the request${forModel} was cancelled`);
  if (call.timedOut) {
    return fail('timeout', `${where} did not finish within ${Math.round(call.limitMs / 1000)} s${forModel}`);
  }
  const failure = error as { message?: string; code?: string; cause?: { code?: string } };
  const message = failure.message ?? String(error);
  if (error instanceof OpenAiStatusError) {
    const status = error.status;
    const overflow = status === 400 || status === 413 ? overflowOf(error.body, message) : undefined;
    if (overflow) {
      const counted = overflow.promptTokens === undefined ? '' : ` (${overflow.promptTokens} tokens)`;
      const window = overflow.contextWindow === undefined ? '' : ` of ${overflow.contextWindow} tokens`;
      return new ContextOverflowError(
        call.redact(
          `the prompt${counted} does not fit the context window${window} of ${where}${forModel}: ${message}`,
        ),
        { host, ...(model ? { model } : {}), status, cause: error, ...overflow },
      );
    }
    if (status === 401 || status === 403) {
      return fail(
        'bad-request',
        `${where} refused the request (HTTP ${status}: ${message}); check the API key in the environment variable the scenario's api_key_env names`,
        { status },
      );
    }
    if (status === 404) {
      if (!model) {
        return fail(
          'unreachable',
          `no OpenAI-compatible API at ${host} (HTTP 404: ${message}); base_url usually ends in /v1`,
          { status },
        );
      }
      return fail(
        'model-not-found',
        `model "${model}" is not served by ${where} (${message}); load it there, or pick one the server lists`,
        { status },
      );
    }
    if (status === 400 || status === 422) {
      return fail('bad-request', `${where} refused the request${forModel}: ${message}`, { status });
    }
    if (status === 429 || status === 503) {
      return fail('busy', `${where} is busy${forModel}: ${message}`, { status });
    }
    return fail('server-error', `${where} failed${forModel} (HTTP ${status}): ${message}`, { status });
  }
  if (error instanceof OpenAiStreamError) {
    // The window (or the cache the slots share) filled while the model wrote: not a fault that
    // the same request sent again gets past, but a prompt and cap to fit anew.
    const overflow = error.reported && model ? overflowOf('', message) : undefined;
    if (overflow) {
      return new ContextOverflowError(
        call.redact(
          `the context window of ${where} filled while ${model} was answering (after ${call.answerTokens ?? 0} tokens): ${message}`,
        ),
        {
          host,
          model,
          cause: error,
          ...overflow,
          duringAnswer: true,
          answerTokens: call.answerTokens ?? 0,
        },
      );
    }
    return fail('server-error', `${where} reported an error${forModel}: ${message}`, {
      causedByOutput: error.reported,
    });
  }
  const code = error instanceof OpenAiConnectionError ? error.code : (failure.cause?.code ?? failure.code);
  // A connection refused, or accepted and then reset before any answer, is a server that does not
  // serve: the run stops (resumable) rather than fill up with emergency answers.
  if (
    (code !== undefined && CONNECTION_CODES.has(code)) ||
    (code === 'ECONNRESET' && !model) ||
    error instanceof OpenAiConnectionError
  ) {
    return fail(
      'unreachable',
      `cannot reach ${where} (${code ?? message}); start it, or correct base_url in the scenario's providers`,
    );
  }
  if (/terminated|socket|other side closed|ECONNRESET|aborted/i.test(message + (code ?? ''))) {
    return fail('stream-incomplete', `the answer from ${where} was cut off before it finished${forModel}`);
  }
  return fail('server-error', `${where} failed${forModel}: ${message}`);
}
