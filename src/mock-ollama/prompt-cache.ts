/**
 * Prompt-cache arithmetic. Each slot of a loaded model remembers the tokens it last processed;
 * a new prompt reuses the longest common prefix and only the rest has to be evaluated.
 */

/** Length of the common prefix of two token lists. */
export function commonPrefixLength(a: readonly string[], b: readonly string[]): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a[i] === b[i]) i++;
  return i;
}

/** Cached tokens for a prompt: Ollama always evaluates at least one token, even on a full hit. */
export function cachedTokens(commonPrefix: number, promptLength: number): number {
  return Math.max(0, Math.min(commonPrefix, promptLength - 1));
}

/** What a slot remembers between requests. */
export interface CacheSlot {
  tokens: readonly string[];
  busy: boolean;
  /** Tick of the last use, for least-recently-used tie breaks. */
  lastUsed: number;
}

/**
 * Picks the free slot whose memory shares the longest prefix with `prompt`; ties go to the least
 * recently used slot, so unrelated conversations spread over the slots. Returns -1 if none is free.
 */
export function chooseSlot(
  slots: readonly CacheSlot[],
  prompt: readonly string[],
): { index: number; common: number } {
  let best = -1;
  let bestCommon = -1;
  slots.forEach((slot, index) => {
    if (slot.busy) return;
    const common = commonPrefixLength(slot.tokens, prompt);
    const bestSlot = slots[best];
    if (
      common > bestCommon ||
      (common === bestCommon && bestSlot !== undefined && slot.lastUsed < bestSlot.lastUsed)
    ) {
      best = index;
      bestCommon = common;
    }
  });
  return { index: best, common: Math.max(0, bestCommon) };
}
