/**
 * Randomness derived per decision from the scenario seed (`<seed>:<purpose>`), never from a shared
 * stream: a resumed run makes exactly the choices an uninterrupted one would.
 */
import seedrandom from 'seedrandom';

/** A number in [0, 1) fixed by the seed and the decision's name. */
export function seededFraction(seed: number, decision: string): number {
  return seedrandom(`${seed}:${decision}`)();
}

/** Picks one item, fixed by the seed and the decision's name. */
export function seededPick<T>(items: readonly T[], seed: number, decision: string): T | undefined {
  if (items.length === 0) return undefined;
  return items[Math.floor(seededFraction(seed, decision) * items.length)];
}

/** A 31-bit integer seed for one model call, e.g. `turn:round-3:Avery`. */
export function derivedSeed(seed: number, purpose: string): number {
  return Math.floor(seededFraction(seed, purpose) * 2 ** 31);
}
