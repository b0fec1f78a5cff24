/** Small helpers over node:util parseArgs that turn bad flags into UsageErrors. */
import { type ParseArgsConfig, parseArgs } from 'node:util';
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
