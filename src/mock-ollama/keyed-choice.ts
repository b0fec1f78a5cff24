/**
 * A choice a prompt defines by keys, as the duel's Judge is asked for `"stronger": "Ada" |
 * "Blaise" | "even"` with `- "Ada": arguing for ...` and `- "Blaise": ...` in its task (or keys
 * that are letters, which a prompt may define differently in two readings). A model reading the
 * keys decides whom it finds stronger and answers with that one's key; so does the simulator: it
 * picks the side from the material before the task (the same debate read twice gives the same
 * side, whatever order or keys the second reading gives it), and answers with the key the task
 * gives that side. About a fifth of the choices are a draw where the enum offers one, and a small
 * seeded share picks the first key listed, the position bias the side-swap check is there to catch.
 */
import { CONTRADICTION_RATE } from './coherent-answer.js';
import { createRng, type Rng } from './random.js';

/** The keys a prompt defines: `- "a": Ada, arguing for X` gives a → "Ada, arguing for X". */
export function statedKeys(text: string): Map<string, string> {
  const keys = new Map<string, string>();
  for (const match of text.matchAll(/^\s*-\s*"([^"\n]+)":\s*(.+)$/gm)) {
    const [, key, meaning] = match;
    if (key && meaning && !keys.has(key)) keys.set(key, meaning.trim());
  }
  return keys;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The share of keyed choices that are a draw, where the enum offers a value without a key. */
export const DRAW_SHARE = 0.2;

/**
 * `value`'s top-level enum choices whose values the prompt defines by keys, made as described
 * above; `material` identifies what comes before the task (`materialHash`), `taskText` is the
 * text that defines the keys.
 */
export function makeKeyedChoices(
  value: unknown,
  schema: unknown,
  material: string,
  taskText: string,
  rng: Rng,
): unknown {
  if (!isRecord(value) || !isRecord(schema) || !isRecord(schema.properties)) return value;
  const keys = statedKeys(taskText);
  if (keys.size < 2) return value;
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!isRecord(property) || !Array.isArray(property.enum) || !(name in value)) continue;
    const options = property.enum.filter((option): option is string => typeof option === 'string');
    const keyed = options.filter((option) => keys.has(option));
    if (keyed.length < 2) continue;
    const draw = options.find((option) => !keys.has(option));
    // The sides by what they are, not by the letters this reading gives them.
    const meanings = keyed.map((option) => keys.get(option) as string).sort();
    const u = createRng(material, `choice:${name}:${meanings.join('|')}`).next();
    if (rng.chance(CONTRADICTION_RATE)) {
      value[name] = keyed[0];
    } else if (draw !== undefined && u < DRAW_SHARE) {
      value[name] = draw;
    } else {
      const at = draw === undefined ? u : (u - DRAW_SHARE) / (1 - DRAW_SHARE);
      const chosen = meanings[Math.min(meanings.length - 1, Math.floor(at * meanings.length))];
      value[name] = keyed.find((option) => keys.get(option) === chosen) ?? keyed[0];
    }
  }
  return value;
}
