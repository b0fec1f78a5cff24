/** Small helpers over node:util parseArgs that turn bad flags into UsageErrors. */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { TIMEOUT_SECONDS, timeoutMilliseconds } from '../config/timeout-seconds.js';
import { UsageError } from '../core/errors.js';

export function parseCommand<T extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  argv: string[],
  options: T,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message}. Run \`agora help\` for the options.`);
  }
}

export function integerFlag(
  name: string,
  value: string | undefined,
  minimum = Number.MIN_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < minimum) {
    throw new UsageError(
      `--${name} must be a whole number${minimum > Number.MIN_SAFE_INTEGER ? ` of at least ${minimum}` : ''}, got "${value}"`,
    );
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
