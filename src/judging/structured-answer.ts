/**
 * Reading a structured answer the way small models write it. A 7-8B model asked for "only the JSON
 * object" still wraps it in a ```json fence, writes a sentence before or after it, leaves a
 * `<think>` block in front of it, or gives a number as a string; none of that makes the answer
 * unusable. What does is said by cause: cut off at its token cap (the server says it stopped there;
 * the fix is more room and shorter text), no usable JSON (none at all, or an object the model
 * itself ended before closing), or JSON that does not have the fields asked for.
 */
import type { z } from 'zod';
import type { ClampedNumber } from '../core/events.js';

export type { ClampedNumber };

type Issue = z.core.$ZodIssue;

/** Why an answer could not be used. */
export type AnswerCause = 'cut-at-cap' | 'not-json' | 'schema';

export type AnswerReading<T> =
  | { ok: true; value: T; clamped?: ClampedNumber[] }
  | { ok: false; cause: AnswerCause; problem: string };

/** Removes thinking: closed `<think>` blocks, and an opened one that never closed (all of it was thinking). */
function withoutThinking(text: string): string {
  const closed = text.replace(/<think>[\s\S]*?<\/think>/g, '');
  const open = closed.indexOf('<think>');
  return open === -1 ? closed : closed.slice(0, open);
}

/**
 * The first balanced JSON object in `text`: from its first `{` to the `}` that closes it, strings
 * and escapes respected. `closed: false` when the text ends inside the object.
 */
export function firstJsonObject(text: string): { json: string; closed: boolean } | null {
  const start = text.indexOf('{');
  if (start === -1) return null;
  let depth = 0;
  let inString = false;
  for (let at = start; at < text.length; at += 1) {
    const char = text[at];
    if (inString) {
      if (char === '\\') at += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) return { json: text.slice(start, at + 1), closed: true };
    }
  }
  return { json: text.slice(start), closed: false };
}

/** JSON.parse, forgiving the trailing commas small models leave before a closing bracket. */
function parseLoosely(json: string): { ok: true; value: unknown } | { ok: false } {
  for (const candidate of [json, json.replace(/,(\s*[}\]])/g, '$1')]) {
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch {
      // try the next reading
    }
  }
  return { ok: false };
}

/**
 * Reads `text` against `schema`. `stopReason` is the server's: an answer that stopped at its cap
 * and does not parse was cut off, which is a different fault from writing something else.
 */
export function readStructuredAnswer<T>(
  text: string,
  schema: z.ZodType<T>,
  stopReason: 'stop' | 'length' = 'stop',
): AnswerReading<T> {
  const found = firstJsonObject(withoutThinking(text));
  const cut = stopReason === 'length';
  if (!found) {
    return cut
      ? { ok: false, cause: 'cut-at-cap', problem: 'the answer was cut off at its token cap before any JSON' }
      : { ok: false, cause: 'not-json', problem: 'the answer holds no JSON object' };
  }
  const parsed = found.closed ? parseLoosely(found.json) : { ok: false as const };
  if (!parsed.ok) {
    if (cut) {
      return {
        ok: false,
        cause: 'cut-at-cap',
        problem: 'the answer was cut off at its token cap: the JSON object is not closed',
      };
    }
    // A model that ends its answer inside the object, well before its cap, wrote unusable JSON;
    // calling it a cut would send the reader to raise a cap that was never reached.
    if (!found.closed) {
      return {
        ok: false,
        cause: 'not-json',
        problem: 'the answer ended before its JSON object was closed (the model stopped, not its token cap)',
      };
    }
    return { ok: false, cause: 'not-json', problem: 'the answer is not valid JSON' };
  }
  const checked = schema.safeParse(parsed.value);
  if (checked.success) return { ok: true, value: checked.data };
  const clamped = clampNumbers(parsed.value, checked.error.issues);
  if (clamped) {
    const again = schema.safeParse(clamped.value);
    if (again.success) return { ok: true, value: again.data, clamped: clamped.numbers };
  }
  const problem = checked.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || 'answer'}: ${issue.message}`)
    .join('; ');
  return { ok: false, cause: 'schema', problem };
}

const toNumber = (value: unknown): number | undefined =>
  typeof value === 'number'
    ? value
    : typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)
      ? Number(value)
      : undefined;

/**
 * A grammar-constrained server holds an answer to its schema's types but not always to a number's
 * `minimum` and `maximum` (llama-server lets a confidence of -0.2 through): such a number is held
 * to the bound it crossed, and recorded, rather than costing the whole answer. Null when any
 * other issue stands, or when no number was out of bounds.
 */
function clampNumbers(
  value: unknown,
  issues: readonly Issue[],
): { value: unknown; numbers: ClampedNumber[] } | null {
  const bounds = issues.filter(
    (issue) => (issue.code === 'too_big' || issue.code === 'too_small') && issue.origin === 'number',
  );
  if (bounds.length === 0 || bounds.length !== issues.length) return null;
  const copy = structuredClone(value);
  const numbers: ClampedNumber[] = [];
  for (const issue of bounds) {
    const parentPath = issue.path.slice(0, -1);
    const key = issue.path.at(-1);
    let parent: unknown = copy;
    for (const step of parentPath)
      parent = (parent as Record<PropertyKey, unknown> | undefined)?.[step as PropertyKey];
    if (parent === null || typeof parent !== 'object' || key === undefined) return null;
    const holder = parent as Record<PropertyKey, unknown>;
    const given = toNumber(holder[key as PropertyKey]);
    if (given === undefined) return null;
    const kept =
      issue.code === 'too_big' ? Number(issue.maximum) : Number((issue as z.core.$ZodIssueTooSmall).minimum);
    holder[key as PropertyKey] = kept;
    numbers.push({ field: issue.path.map(String).join('.'), given, kept });
  }
  return { value: copy, numbers };
}
