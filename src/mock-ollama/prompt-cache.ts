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
 * Picks the slot for `prompt` and how many of its tokens are cached there; index -1 if no slot is
 * free. Ollama's runner has two ways (runner/ollamarunner/cache.go):
 *
 * - by default, the free slot whose memory shares the longest prefix with the prompt
 *   (`findLongestCacheSlot`); here ties go to the least recently used slot, so unrelated
 *   conversations spread over the slots;
 * - with OLLAMA_MULTIUSER_CACHE (`multiUser`), a free slot whose whole memory begins the prompt;
 *   otherwise the least recently used free slot, into which the longest common prefix of any slot,
 *   busy or not, is copied (`findBestCacheSlot`, "forking cache slot"). A conversation that
 *   departs from another's keeps that one's memory intact, and calls sharing a prefix that arrive
 *   together each get it.
 */
export function chooseSlot(
  slots: readonly CacheSlot[],
  prompt: readonly string[],
  multiUser = false,
): { index: number; common: number } {
  return multiUser ? chooseSlotMultiUser(slots, prompt) : chooseLongestFreeSlot(slots, prompt);
}

function chooseSlotMultiUser(
  slots: readonly CacheSlot[],
  prompt: readonly string[],
): { index: number; common: number } {
  let longest = -1;
  let longestCommon = -1;
  let oldest = -1;
  slots.forEach((slot, index) => {
    const common = commonPrefixLength(slot.tokens, prompt);
    if (common > longestCommon) {
      longest = index;
      longestCommon = common;
    }
    const oldestSlot = slots[oldest];
    if (!slot.busy && (oldestSlot === undefined || slot.lastUsed < oldestSlot.lastUsed)) oldest = index;
  });
  const best = slots[longest];
  if (best !== undefined && !best.busy && longestCommon === best.tokens.length) {
    return { index: longest, common: longestCommon };
  }
  return { index: oldest, common: oldest === -1 ? 0 : Math.max(0, longestCommon) };
}

function chooseLongestFreeSlot(
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
