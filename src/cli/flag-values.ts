/** Flag values read as numbers, with a usage error that names the flag and the range when they are not. */
import { TIMEOUT_SECONDS, timeoutMilliseconds } from '../config/timeout-seconds.js';
import { UsageError } from '../core/errors.js';

/** `--rounds`: the range the web form allows too; a longer debate belongs in a scenario file. */
export const ROUNDS_RANGE = { min: 1, max: 50 } as const;

export function integerFlag(
  name: string,
  value: string | undefined,
  minimum = Number.MIN_SAFE_INTEGER,
  maximum = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const number = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isSafeInteger(number) || number < minimum || number > maximum) {
    const bounded = minimum > Number.MIN_SAFE_INTEGER;
    const range =
      maximum < Number.MAX_SAFE_INTEGER
        ? ` from ${minimum} to ${maximum}`
        : bounded
          ? ` of at least ${minimum}`
          : '';
    throw new UsageError(`--${name} must be a whole number${range}, got "${value}"`);
  }
  return number;
}

export function numberFlag(name: string, value: string | undefined, minimum = 0): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number < minimum) {
    throw new UsageError(`--${name} must be a number of at least ${minimum}, got "${value}"`);
  }
  return number;
}

/** `--timeout SECONDS` as whole milliseconds, in the range a scenario's time limits allow. */
export function timeoutFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = value.trim() === '' ? Number.NaN : Number(value);
  if (!(seconds >= TIMEOUT_SECONDS.min && seconds <= TIMEOUT_SECONDS.max)) {
    throw new UsageError(
      `--timeout must be a number of seconds from ${TIMEOUT_SECONDS.min} to ${TIMEOUT_SECONDS.max}, got "${value}"`,
    );
  }
  return timeoutMilliseconds(seconds);
}
