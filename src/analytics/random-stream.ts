/**
 * A tiny seeded generator (mulberry32) for resampling: analytics must give identical intervals for
 * identical input, and a 32-bit state is plenty for a few hundred bootstrap draws.
 */

/** Returns a function yielding numbers in [0, 1), fully determined by the seed. */
export function createRandomStream(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
