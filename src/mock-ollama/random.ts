/**
 * Deterministic randomness: everything the mock invents is drawn from a generator seeded by a
 * hash of the request, so the same request always gets the same answer.
 */
import { createHash } from 'node:crypto';
import seedrandom from 'seedrandom';

/** A seeded pseudo-random source with a few convenience draws. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
}

/** JSON with object keys sorted at every level, so key order never changes a hash. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort()) sorted[key] = (v as Record<string, unknown>)[key];
    return sorted;
  });
}

/** Hex sha256 of the canonical JSON form of `value`. */
export function hashOf(value: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(value) ?? 'undefined')
    .digest('hex');
}

/** A generator seeded by `seed`; `salt` derives independent streams from one seed. */
export function createRng(seed: string, salt = ''): Rng {
  const prng = seedrandom(`${seed}:${salt}`);
  const rng: Rng = {
    next: () => prng(),
    int: (min, max) => min + Math.floor(prng() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('cannot pick from an empty list');
      return items[Math.floor(prng() * items.length)] as T;
    },
    chance: (p) => prng() < p,
  };
  return rng;
}
