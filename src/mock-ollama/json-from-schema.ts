/**
 * Builds a JSON value that satisfies a JSON schema (the subset structured outputs use in
 * practice), with every choice drawn from a seeded generator so answers stay deterministic.
 */
import type { Rng } from './random.js';

/** Supplies a short sentence for a string property (named `property` when known). */
export type TextSource = (property: string | undefined, rng: Rng) => string;

type Schema = Record<string, unknown>;

const MAX_DEPTH = 12;

const defaultText: TextSource = (_property, rng) =>
  rng.pick([
    'The argument was clear and well supported.',
    'The evidence offered was relevant but incomplete.',
    'A reasonable point that deserved more development.',
    'The rebuttal addressed the main objection directly.',
  ]);

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * A value matching `schema`; strings come from `text`, which can follow the property name. A plain
 * string without `maxLength` comes from `unbounded` when it is given (a grammar-constrained model
 * that keeps writing it).
 */
export function jsonFromSchema(
  schema: unknown,
  rng: Rng,
  text: TextSource = defaultText,
  unbounded?: TextSource,
): unknown {
  const root = isSchema(schema) ? schema : {};
  const build = (node: unknown, property: string | undefined, depth: number): unknown => {
    if (!isSchema(node) || depth > MAX_DEPTH) return null;
    if ('const' in node) return node.const;
    // Like a model, it favours the first option listed, and picks any of them now and then.
    if (Array.isArray(node.enum) && node.enum.length > 0)
      return rng.chance(0.5) ? node.enum[0] : rng.pick(node.enum);
    if (typeof node.$ref === 'string') return build(resolveRef(root, node.$ref), property, depth + 1);
    const alternatives = node.anyOf ?? node.oneOf;
    if (Array.isArray(alternatives) && alternatives.length > 0) {
      // Prefer a non-null branch so answers carry content; null still appears sometimes.
      const concrete = alternatives.filter((a) => !(isSchema(a) && a.type === 'null'));
      const pool = concrete.length > 0 && rng.chance(0.85) ? concrete : alternatives;
      return build(rng.pick(pool), property, depth + 1);
    }
    if (Array.isArray(node.allOf)) return build(mergeAll(node), property, depth + 1);
    const type = chooseType(node, rng);
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return rng.chance(0.5);
      case 'integer':
        return integerFor(node, property, rng);
      case 'number':
        return numberFor(node, property, rng);
      case 'string':
        return stringFor(
          node,
          property,
          rng,
          unbounded && num(node.maxLength) === undefined ? unbounded : text,
        );
      case 'array':
        return arrayFor(node, rng, (item) => build(item, property, depth + 1));
      default:
        return objectFor(node, rng, (child, name) => build(child, name, depth + 1));
    }
  };
  return build(root, undefined, 0);
}

/** Resolves a local reference such as `#/$defs/Verdict`; anything else yields an empty schema. */
function resolveRef(root: Schema, ref: string): unknown {
  if (!ref.startsWith('#')) return {};
  let node: unknown = root;
  for (const raw of ref
    .slice(1)
    .split('/')
    .filter((p) => p !== '')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isSchema(node) ? node[part] : undefined;
  }
  return node ?? {};
}

/** Merges `allOf` branches shallowly: properties and required lists are combined. */
function mergeAll(node: Schema): Schema {
  const { allOf, ...rest } = node;
  const merged: Schema = { ...rest };
  const properties: Schema = isSchema(rest.properties) ? { ...rest.properties } : {};
  const required = new Set<string>(Array.isArray(rest.required) ? (rest.required as string[]) : []);
  for (const branch of allOf as unknown[]) {
    if (!isSchema(branch)) continue;
    Object.assign(merged, branch);
    if (isSchema(branch.properties)) Object.assign(properties, branch.properties);
    if (Array.isArray(branch.required)) for (const r of branch.required) required.add(String(r));
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

function chooseType(node: Schema, rng: Rng): string {
  const declared = node.type;
  let types = Array.isArray(declared) ? declared.map(String) : typeof declared === 'string' ? [declared] : [];
  if (node.nullable === true && !types.includes('null')) types = [...types, 'null'];
  if (types.length === 0) {
    if (isSchema(node.properties)) return 'object';
    if (node.items !== undefined || node.prefixItems !== undefined) return 'array';
    return 'string';
  }
  const concrete = types.filter((t) => t !== 'null');
  if (concrete.length === 0) return 'null';
  return concrete.length === types.length || rng.chance(0.85) ? rng.pick(concrete) : 'null';
}

/** Inclusive bounds from minimum/maximum and their exclusive forms, with sensible defaults. */
function bounds(node: Schema, property: string | undefined, step: number): [number, number] {
  const exclusiveMin = num(node.exclusiveMinimum);
  const exclusiveMax = num(node.exclusiveMaximum);
  let low = num(node.minimum) ?? (exclusiveMin === undefined ? undefined : exclusiveMin + step);
  let high = num(node.maximum) ?? (exclusiveMax === undefined ? undefined : exclusiveMax - step);
  // Unbounded (or absurdly wide, like a safe-integer range) sides get a small, plausible range.
  const span = /score|rating|grade|mark|points/i.test(property ?? '') ? 9 : 100;
  if (low !== undefined && low < -1e9) low = undefined;
  if (high !== undefined && high > 1e9) high = undefined;
  if (low === undefined && high === undefined) low = span === 9 ? 1 : 0;
  if (low === undefined) low = (high ?? 0) - span;
  if (high === undefined) high = low + span;
  // A model asked how confident it is on a 0-100 scale answers high, as small models do by habit.
  if (/confidence/i.test(property ?? '') && low === 0 && high === 100) return [55, 95];
  return [low, Math.max(low, high)];
}

function integerFor(node: Schema, property: string | undefined, rng: Rng): number {
  const [low, high] = bounds(node, property, 1);
  const lo = Math.ceil(low);
  const hi = Math.max(lo, Math.floor(high));
  const multiple = num(node.multipleOf);
  if (multiple !== undefined && multiple > 0 && Number.isInteger(multiple)) {
    const first = Math.ceil(lo / multiple);
    const last = Math.floor(hi / multiple);
    if (last >= first) return rng.int(first, last) * multiple;
  }
  return rng.int(lo, hi);
}

function numberFor(node: Schema, property: string | undefined, rng: Rng): number {
  const [low, high] = bounds(node, property, 0.01);
  const value = Math.round((low + rng.next() * (high - low)) * 100) / 100;
  return Math.min(high, Math.max(low, value));
}

function stringFor(node: Schema, property: string | undefined, rng: Rng, text: TextSource): string {
  const minLength = num(node.minLength) ?? 0;
  const maxLength = num(node.maxLength);
  const day = (): Date => new Date(Date.UTC(2024, 0, 1) + rng.int(0, 365) * 86_400_000);
  if (node.format === 'date-time') return day().toISOString();
  if (node.format === 'date') return day().toISOString().slice(0, 10);
  if (node.format === 'email') return `speaker${rng.int(1, 99)}@example.org`;
  if (node.format === 'uri' || node.format === 'url') return `https://example.org/debates/${rng.int(1, 999)}`;
  if (node.format === 'uuid') {
    const hex = (n: number): string => Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join('');
    return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  }
  let value = text(property, rng);
  while (value.length < minLength) value = `${value} ${text(property, rng)}`;
  if (maxLength !== undefined && value.length > maxLength) {
    // Cut at a word boundary when that still honours minLength, otherwise hard.
    const cut = value.slice(0, maxLength);
    const space = cut.lastIndexOf(' ');
    value = space >= Math.max(minLength, 1) ? cut.slice(0, space) : cut;
  }
  return value;
}

function arrayFor(node: Schema, rng: Rng, build: (item: unknown) => unknown): unknown[] {
  const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
  // Like a model asked for a list, it writes at least one item when it may.
  const allowed = num(node.maxItems);
  const minItems = Math.max(num(node.minItems) ?? 1, prefix.length, allowed === 0 ? 0 : 1);
  const maxItems = Math.max(minItems, Math.min(allowed ?? minItems + 2, minItems + 3));
  const count = rng.int(minItems, maxItems);
  const out: unknown[] = [];
  for (let i = 0; i < count; i++)
    out.push(build(i < prefix.length ? prefix[i] : (node.items ?? { type: 'string' })));
  return out;
}

function objectFor(
  node: Schema,
  rng: Rng,
  build: (child: unknown, name: string) => unknown,
): Record<string, unknown> {
  const properties = isSchema(node.properties) ? node.properties : {};
  const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(properties)) {
    // Optional properties appear about half the time, like a model that only fills what it must.
    if (required.has(name) || rng.chance(0.5)) out[name] = build(child, name);
  }
  for (const name of required) if (!(name in out)) out[name] = build({}, name);
  return out;
}
