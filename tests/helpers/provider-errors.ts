/** The ProviderError a call fails with (and a test failure if it succeeds or fails otherwise). */
import { isProviderError, type ProviderError } from '../../src/llm/errors.js';

export async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isProviderError(error)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}
