/**
 * Token budgets of a call. A thinking model (qwen3, deepseek-r1) spends its thinking from the same
 * `num_predict` as its answer, so a thinking call gets its thinking budget on top of the answer's
 * cap; the answer itself is still held to its cap afterwards.
 */

/** The default thinking budget, in tokens, when a scenario sets none. */
export const DEFAULT_THINKING_BUDGET = 1500;

/** `num_predict` for an answer capped at `cap` tokens. */
export function answerBudget(cap: number, think = false, thinkingBudget = DEFAULT_THINKING_BUDGET): number {
  return think ? cap + thinkingBudget : cap;
}

/**
 * An answer held to its own cap: with a thinking budget on top, a model that thought briefly could
 * otherwise speak past it. The text is cut at the share of it that fits, on a word boundary.
 */
export function holdToCap(
  text: string,
  answerTokens: number,
  cap: number,
): { text: string; answerTokens: number; cut: boolean } {
  if (answerTokens <= cap || answerTokens <= 0) return { text, answerTokens, cut: false };
  const keep = Math.floor(text.length * (cap / answerTokens));
  const cutAt = text.lastIndexOf(' ', keep);
  return { text: text.slice(0, cutAt > 0 ? cutAt : keep).trimEnd(), answerTokens: cap, cut: true };
}
