/**
 * The simulated clock of the SRS (section 2.4): speech time is output tokens ÷ speaking rate, and
 * each side has the same budget per round. The budget becomes the request's `num_predict`.
 */

export const TIME_LIMIT_MARKER = '[Time limit reached]';

export interface TimerSettings {
  secondsPerSide: number;
  tokensPerSecond: number;
}

/** Simulated seconds it takes to say `tokens` tokens. */
export function simulatedSeconds(tokens: number, settings: TimerSettings): number {
  return tokens / settings.tokensPerSecond;
}

/** Tokens a side may still speak this round. */
export function remainingTokens(usedSeconds: number, settings: TimerSettings): number {
  const left = settings.secondsPerSide - usedSeconds;
  return Math.max(0, Math.floor(left * settings.tokensPerSecond));
}

/** The `num_predict` for a statement: the agent's cap or what is left of the budget, whichever is smaller. */
export function tokenLimitFor(maxTokens: number, usedSeconds: number, settings: TimerSettings): number {
  return Math.max(1, Math.min(maxTokens, remainingTokens(usedSeconds, settings)));
}

/** Marks a statement the limit cut short, so readers know it did not end by choice. */
export function markIfCut(text: string, cut: boolean): string {
  if (!cut) return text;
  return `${text.trimEnd()}\n${TIME_LIMIT_MARKER}`;
}
