/**
 * Makes a simulated structured answer hang together the way a real judge's does. A schema says
 * only what shape an answer has; a model that scores a speech 2 of 5 does not then vote to keep
 * it. Within each object of the answer:
 * - a group of scores (an object of small whole numbers, like `{"clarity": 4, ...}`) follows one
 *   level, drawn per group, with a point of spread either way;
 * - a vote (a boolean named like `continue_vote` or `keep`) follows the scores beside it, weighed
 *   as the prompt weighs its criteria when it states the weights;
 * - a choice whose allowed values name sibling score groups (a verdict's `winner`) picks the group
 *   scored higher.
 * A small share of votes and choices, drawn from the request's seed, goes against the scores, as
 * real small models' do now and then, so the engine's checks for it have something to find.
 */
import type { Rng } from './random.js';

type Node = Record<string, unknown>;

/** How often a vote or a choice contradicts the scores beside it. */
export const CONTRADICTION_RATE = 0.04;

const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const VOTE = /^(continue_vote|continue|keep|approve|approved|vote)$/i;

/** The bounds of a small whole-number scale (a score), or null for any other schema. */
function scoreScale(node: unknown): [number, number] | null {
  if (!isNode(node) || node.type !== 'integer') return null;
  const low = typeof node.minimum === 'number' ? node.minimum : null;
  const high = typeof node.maximum === 'number' ? node.maximum : null;
  if (low === null || high === null || high - low > 10 || high <= low) return null;
  return [low, high];
}

/** The properties of `node`'s schema that are score groups, with their scales. */
function scoreGroups(schema: Node): Map<string, [number, number]> {
  const groups = new Map<string, [number, number]>();
  const properties = isNode(schema.properties) ? schema.properties : {};
  for (const [name, child] of Object.entries(properties)) {
    if (!isNode(child) || !isNode(child.properties)) continue;
    const scales = Object.values(child.properties).map(scoreScale);
    const first = scales[0];
    if (first && scales.every((scale) => scale && scale[0] === first[0] && scale[1] === first[1])) {
      groups.set(name, first);
    }
  }
  return groups;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The scores' mean, weighted as the prompt weighs its criteria when it names every weight. */
function weightedMean(scores: Record<string, number>, weights: Readonly<Record<string, number>>): number {
  const keys = Object.keys(scores);
  const total = keys.reduce((sum, key) => sum + (weights[key] ?? Number.NaN), 0);
  if (!(total > 0)) return mean(Object.values(scores));
  return keys.reduce((sum, key) => sum + (scores[key] ?? 0) * (weights[key] ?? 0), 0) / total;
}

/**
 * The criteria weights a prompt states ("- clarity (weight 0.1): ..."), as a model reading it
 * would weigh its own scores before voting.
 */
export function statedWeights(text: string): Record<string, number> {
  const weights: Record<string, number> = {};
  for (const match of text.matchAll(/^\s*[-*]\s*([A-Za-z_][\w-]*)\s*\(weight\s+([0-9]*\.?[0-9]+)\)/gm)) {
    const [, name, weight] = match;
    if (name && weight) weights[name] = Number(weight);
  }
  return weights;
}

/** Draws the level of a score group by its name (in a range). */
export type LevelSource = (group: string, low: number, high: number) => number;

/**
 * `value` (built from `schema`) made coherent in place, and returned. `level` draws the level of
 * each score group: seeded by what several calls have in common (the material before their own
 * task), it makes judges of the same material broadly agree, as real ones do.
 */
export function makeCoherent(
  value: unknown,
  schema: unknown,
  rng: Rng,
  shared: LevelSource = (_group, low, high) => rng.int(low, high),
  weights: Readonly<Record<string, number>> = {},
): unknown {
  if (Array.isArray(value)) {
    const items = isNode(schema) ? schema.items : undefined;
    for (const item of value) makeCoherent(item, items, rng, shared, weights);
    return value;
  }
  if (!isNode(value) || !isNode(schema)) return value;
  const properties = isNode(schema.properties) ? schema.properties : {};
  for (const [name, child] of Object.entries(value)) {
    makeCoherent(child, properties[name], rng, shared, weights);
  }
  const groups = scoreGroups(schema);
  const levels = new Map<string, { mean: number; midpoint: number }>();
  for (const [name, [low, high]] of groups) {
    const scores = value[name];
    if (!isNode(scores)) continue;
    const level = shared(name, low, high);
    for (const key of Object.keys(scores)) {
      scores[key] = Math.min(high, Math.max(low, level + rng.int(-1, 1)));
    }
    levels.set(name, {
      mean: weightedMean(scores as Record<string, number>, weights),
      midpoint: (low + high) / 2,
    });
  }
  if (levels.size === 0) return value;
  const contradict = () => rng.chance(CONTRADICTION_RATE);
  for (const [name, child] of Object.entries(properties)) {
    if (!isNode(child)) continue;
    if (child.type === 'boolean' && VOTE.test(name) && name in value) {
      const all = [...levels.values()];
      const good = mean(all.map((level) => level.mean)) >= (all[0]?.midpoint ?? 0);
      value[name] = contradict() ? !good : good;
    }
    if (Array.isArray(child.enum) && name in value) {
      const named = child.enum.filter(
        (option): option is string => typeof option === 'string' && levels.has(option),
      );
      if (named.length < 2) continue;
      const ranked = [...named].sort((a, b) => (levels.get(b)?.mean ?? 0) - (levels.get(a)?.mean ?? 0));
      value[name] = contradict() ? ranked.at(-1) : ranked[0];
    }
  }
  return value;
}
