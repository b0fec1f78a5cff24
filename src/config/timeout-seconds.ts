/**
 * Time limits given in seconds (`reliability.request_timeout_seconds`, `--timeout`,
 * `statements.time_limit_seconds`): one range and one conversion for all of them, so a value the
 * schema accepts is one every timer accepts.
 */
import { z } from 'zod';

/** At least a second (anything shorter cannot receive a first token), at most a day. */
export const TIMEOUT_SECONDS = { min: 1, max: 86_400 } as const;

const RANGE_MESSAGE = `must be a number of seconds from ${TIMEOUT_SECONDS.min} to ${TIMEOUT_SECONDS.max}`;

/** A time limit in seconds; fractions are allowed and rounded to whole milliseconds when used. */
export const timeoutSecondsSchema = z
  .number({ error: RANGE_MESSAGE })
  .min(TIMEOUT_SECONDS.min, { error: RANGE_MESSAGE })
  .max(TIMEOUT_SECONDS.max, { error: RANGE_MESSAGE });

/** Whole milliseconds: timers and `AbortSignal.timeout` refuse fractions. */
export function timeoutMilliseconds(seconds: number): number {
  return Math.round(seconds * 1000);
}
