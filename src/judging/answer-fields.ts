/**
 * Field types for the structured answers the engine asks of models. Every string carries a
 * `maxLength`, every list a `maxItems` and every number a range in the JSON schema sent to the
 * server: a grammar-constrained model (Ollama's `format`, llama-server's and vLLM's
 * `response_format`) otherwise fills an unbounded string until its token cap and the JSON is cut
 * off. Reading the answer back is lenient: a longer string from a server that does not enforce
 * the schema is kept, a number or a boolean written as a string is read as one.
 */
import { z } from 'zod';

/** Text of at most `maxChars` characters (in the schema; a longer answer is still read). */
export function boundedText(maxChars: number) {
  return z.string().min(1).meta({ maxLength: maxChars });
}

/**
 * The characters a text field may take: `share` of the answer's token cap (at three characters a
 * token, the worst case for English), and never more than `most`.
 */
export function charsFor(maxTokens: number, share: number, most: number): number {
  return Math.max(40, Math.min(most, Math.floor(maxTokens * share * 3)));
}

/** Text that may be empty, of at most `maxChars` characters. */
export function optionalText(maxChars: number) {
  return z.string().meta({ maxLength: maxChars });
}

/** A list of at most `maxItems` items (in the schema; extra items are dropped when read). */
export function boundedList<T extends z.ZodType>(item: T, maxItems: number, minItems = 0) {
  return z
    .array(item)
    .min(minItems)
    .meta({ maxItems })
    .transform((items) => items.slice(0, maxItems));
}

const numeric = (value: unknown) =>
  typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;

/** A whole number in a range; "4" is read as 4. */
export function boundedInteger(min: number, max: number) {
  return z.preprocess(numeric, z.number().int().min(min).max(max));
}

/** A number in a range; "0.7" is read as 0.7. */
export function boundedNumber(min: number, max: number) {
  return z.preprocess(numeric, z.number().min(min).max(max));
}

/** A boolean; "true" and "false" are read as booleans. */
export const looseBoolean = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean(),
);

/** The JSON schema sent to the server for `schema`. */
export function answerJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return rest;
}

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The characters a token the bounds of text fields are sized at: the worst case for English. */
export const BOUNDS_CHARS_PER_TOKEN = 3;

/**
 * The most tokens an answer to `schema` can take when the server enforces it: each character of
 * text counted as 1/`charsPerToken` of a token (default a third: English prose averages a
 * quarter), keys, quotes and punctuation on top. Unbounded strings or lists make it infinite.
 */
export function worstCaseAnswerTokens(schema: Node, charsPerToken = BOUNDS_CHARS_PER_TOKEN): number {
  const per = (chars: number) => Math.ceil(chars / charsPerToken);
  const size = (node: unknown): number => {
    if (!isNode(node)) return 0;
    if (Array.isArray(node.enum)) {
      return 2 + Math.max(...node.enum.map((value) => per(String(value).length)));
    }
    const alternatives = node.anyOf ?? node.oneOf;
    if (Array.isArray(alternatives)) return Math.max(...alternatives.map(size));
    switch (node.type) {
      case 'string':
        return typeof node.maxLength === 'number' ? 2 + per(node.maxLength) : Number.POSITIVE_INFINITY;
      case 'integer':
      case 'number':
        return typeof node.maximum === 'number' && typeof node.minimum === 'number'
          ? 2 + String(Math.max(Math.abs(node.maximum), Math.abs(node.minimum))).length
          : Number.POSITIVE_INFINITY;
      case 'boolean':
        return 2;
      case 'array':
        return typeof node.maxItems === 'number'
          ? 2 + node.maxItems * (1 + size(node.items))
          : Number.POSITIVE_INFINITY;
      case 'object': {
        const properties = isNode(node.properties) ? node.properties : {};
        return (
          2 +
          Object.entries(properties).reduce((sum, [key, child]) => sum + 3 + per(key.length) + size(child), 0)
        );
      }
      default:
        return Number.POSITIVE_INFINITY;
    }
  };
  return size(schema);
}

/** The characters a value of a JSON Schema string `format` takes at least (`2026-11-27` for a date). */
const FORMAT_LENGTHS: Readonly<Record<string, number>> = {
  date: 10,
  time: 8,
  'date-time': 20,
};

/**
 * `schema` for a model that writes `charsPerToken` characters a token: the text bounds are sized at
 * three, so for a model with fewer (a small vocabulary at 1.5) every string's `maxLength` shrinks
 * in proportion, and the longest answer the schema allows still fits the cap it was sized for.
 * Unchanged for a model at three or more.
 */
export function schemaAtRate(schema: Node, charsPerToken: number): Node {
  if (!(charsPerToken > 0) || charsPerToken >= BOUNDS_CHARS_PER_TOKEN) return schema;
  const factor = charsPerToken / BOUNDS_CHARS_PER_TOKEN;
  const scale = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(scale);
    if (!isNode(node)) return node;
    const copy: Node = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, scale(value)]));
    if (node.type === 'string' && typeof node.maxLength === 'number') {
      // Never below what the field's own format needs: a date is ten characters at any rate.
      const formatNeeds = typeof node.format === 'string' ? (FORMAT_LENGTHS[node.format] ?? 0) : 0;
      const least = Math.max(typeof node.minLength === 'number' ? node.minLength : 1, formatNeeds);
      copy.maxLength = Math.max(least, Math.floor(node.maxLength * factor));
    }
    return copy;
  };
  return scale(schema) as Node;
}
