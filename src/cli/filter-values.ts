/** Filters such as `--status` or `--batch` that match nothing because of a typo are refused, with the valid values. */
import { UsageError } from '../core/errors.js';

/** Refuses `value` for `--flag` unless it is one of `allowed`. */
export function requireOneOf(flag: string, value: string | undefined, allowed: readonly string[]): void {
  if (value === undefined || allowed.includes(value)) return;
  throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}; got "${value}"`);
}

/** Refuses a `--batch` id that names no batch in the runs folder, listing those that exist. */
export function requireBatch(value: string | undefined, batches: readonly string[], outDir: string): void {
  if (value === undefined || batches.includes(value)) return;
  const known = [...new Set(batches)].sort();
  throw new UsageError(
    `--batch "${value}" names no batch in ${outDir}; ${known.length > 0 ? `batches there: ${known.join(', ')}` : 'there are no batches there yet (`agora batch` makes one)'}`,
  );
}
