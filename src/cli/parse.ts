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
    return parseArgs({
      args: joinNegativeValues(argv, options),
      options,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. Run \`agora ${command} --help\` for the options.`);
  }
}

/**
 * `--seed -1` as `--seed=-1`. Node's parser takes a value that starts with a dash for another flag
 * ("argument is ambiguous"), so without this the two spellings of one value would behave apart.
 */
function joinNegativeValues(argv: string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const joined: string[] = [];
  for (let at = 0; at < argv.length; at += 1) {
    const token = argv[at] as string;
    if (token === '--') {
      joined.push(...argv.slice(at));
      break;
    }
    const next = argv[at + 1];
    const option = token.startsWith('--') ? options[token.slice(2)] : undefined;
    if (option?.type === 'string' && next !== undefined && /^-\d+(\.\d+)?$/.test(next)) {
      joined.push(`${token}=${next}`);
      at += 1;
    } else joined.push(token);
  }
  return joined;
}

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
