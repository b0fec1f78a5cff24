/**
 * Stop conditions every format shares (seed 000): active runtime, total output tokens, and too
 * many failed steps in a row. Checked between steps from the state alone, so a replay stops at
 * the same place.
 */
export interface RunUsage {
  activeMs: number;
  outputTokens: number;
  failureStreak: number;
}

export interface RunLimits {
  maxRuntimeSeconds: number;
  maxTotalOutputTokens: number;
  maxConsecutiveFailures: number;
}

export type LimitStop =
  | { status: 'completed'; stopReason: 'max_runtime_seconds' | 'max_total_output_tokens' }
  | { status: 'failed'; stopReason: string };

export function checkLimits(usage: RunUsage, limits: RunLimits): LimitStop | null {
  if (usage.failureStreak >= limits.maxConsecutiveFailures) {
    return {
      status: 'failed',
      stopReason: `${usage.failureStreak} model calls failed in a row; check that Ollama is running, then resume the run`,
    };
  }
  if (usage.activeMs >= limits.maxRuntimeSeconds * 1000)
    return { status: 'completed', stopReason: 'max_runtime_seconds' };
  if (usage.outputTokens >= limits.maxTotalOutputTokens) {
    return { status: 'completed', stopReason: 'max_total_output_tokens' };
  }
  return null;
}

/** The limits a scenario sets (its `stop` and `reliability` blocks), checked against a run's usage. */
export function checkScenarioLimits(
  usage: RunUsage,
  scenario: {
    stop: { max_runtime_seconds: number; max_total_output_tokens: number };
    reliability: { max_consecutive_failures: number };
  },
): LimitStop | null {
  return checkLimits(usage, {
    maxRuntimeSeconds: scenario.stop.max_runtime_seconds,
    maxTotalOutputTokens: scenario.stop.max_total_output_tokens,
    maxConsecutiveFailures: scenario.reliability.max_consecutive_failures,
  });
}
