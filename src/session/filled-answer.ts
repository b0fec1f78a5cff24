/**
 * The largest answer a JSON schema allows: every string written to its `maxLength`, every list to
 * its `maxItems`, every number at its top. It stands for a structured answer written to its caps
 * when a whole debate is tried before it runs (whole-debate-fit.ts): what a judge writes then
 * enters later prompts at its largest, as a small model's often does.
 */

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A string's length when its schema sets none: a long sentence or two. */
const UNBOUNDED_CHARS = 240;
/** A list's length when its schema sets none. */
const UNBOUNDED_ITEMS = 3;

const FILLER = 'The argument holds because the evidence given supports it and the objection misses it. ';

/** Plain text of exactly `chars` characters, in sentences. */
export function fillerText(chars: number): string {
  if (chars <= 0) return '';
  return FILLER.repeat(Math.ceil(chars / FILLER.length))
    .slice(0, chars)
    .replace(/\s$/, '.');
}

function filledString(node: Node): string {
  if (node.format === 'date') return '2026-01-01';
  if (node.format === 'date-time') return '2026-01-01T00:00:00.000Z';
  const most = typeof node.maxLength === 'number' ? node.maxLength : UNBOUNDED_CHARS;
  const least = typeof node.minLength === 'number' ? node.minLength : 1;
  return fillerText(Math.max(least, most));
}

function filledNumber(node: Node, integer: boolean): number {
  const top =
    typeof node.maximum === 'number'
      ? node.maximum
      : typeof node.exclusiveMaximum === 'number'
        ? node.exclusiveMaximum - (integer ? 1 : 0.01)
        : undefined;
  const bottom = typeof node.minimum === 'number' ? node.minimum : undefined;
  const value = top ?? bottom ?? 1;
  return integer ? Math.floor(value) : value;
}

/** The largest value `schema` allows (the first choice of an enum or an alternative). */
export function filledAnswer(schema: unknown): unknown {
  if (!isNode(schema)) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    const usable = alternatives.find((item) => isNode(item) && item.type !== 'null');
    return filledAnswer(usable ?? alternatives[0]);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((item) => item !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = isNode(schema.properties) ? schema.properties : {};
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, filledAnswer(value)]));
    }
    case 'array': {
      const count =
        typeof schema.maxItems === 'number'
          ? schema.maxItems
          : Math.max(typeof schema.minItems === 'number' ? schema.minItems : 0, UNBOUNDED_ITEMS);
      return Array.from({ length: count }, () => filledAnswer(schema.items));
    }
    case 'string':
      return filledString(schema);
    case 'integer':
      return filledNumber(schema, true);
    case 'number':
      return filledNumber(schema, false);
    case 'boolean':
      // False keeps a debate going (no "no new arguments"): the longest debate is the one tried.
      return false;
    case 'null':
      return null;
    default:
      return filledString(schema);
  }
}
