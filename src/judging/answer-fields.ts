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

/**
 * The most tokens an answer to `schema` can take when the server enforces it: each character of
 * text counted as a third of a token (English prose averages a quarter), keys, quotes and
 * punctuation on top. Unbounded strings or lists make it infinite.
 */
export function worstCaseAnswerTokens(schema: Node): number {
  const size = (node: unknown): number => {
    if (!isNode(node)) return 0;
    if (Array.isArray(node.enum)) {
      return 2 + Math.max(...node.enum.map((value) => Math.ceil(String(value).length / 3)));
    }
    const alternatives = node.anyOf ?? node.oneOf;
    if (Array.isArray(alternatives)) return Math.max(...alternatives.map(size));
    switch (node.type) {
      case 'string':
        return typeof node.maxLength === 'number'
          ? 2 + Math.ceil(node.maxLength / 3)
          : Number.POSITIVE_INFINITY;
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
          Object.entries(properties).reduce(
            (sum, [key, child]) => sum + 3 + Math.ceil(key.length / 3) + size(child),
            0,
          )
        );
      }
      default:
        return Number.POSITIVE_INFINITY;
    }
  };
  return size(schema);
}
