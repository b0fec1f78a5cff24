/**
 * A number of a structured answer that lay outside its schema's bounds, said as a reader reads it:
 * "confidence -5e12 read as 0". The answer is used with the number held to its bound; this is the
 * sentence the terminal, the reports and the transcripts give for it.
 */
import type { ClampedNumber } from './events.js';

/** A number as short as it can be read: -5e12 rather than -5000000000000. */
function shortNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 1e6 || (value !== 0 && Math.abs(value) < 1e-3)) {
    return value
      .toExponential()
      .replace(/\.?0+e/, 'e')
      .replace('e+', 'e');
  }
  return String(Math.round(value * 1000) / 1000);
}

export function clampedText(clamped: readonly ClampedNumber[]): string {
  return clamped
    .map((item) => `${item.field} ${shortNumber(item.given)} read as ${shortNumber(item.kept)}`)
    .join(', ');
}
