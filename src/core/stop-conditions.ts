/**
 * Stop conditions every format shares: active runtime and total output tokens (seed 000's budget,
 * which each format may or may not set), and too many failed steps in a row by one agent or on
 * one model. Checked between steps from the state alone, so a replay stops at the same place.
 */
import { type FailureStreaks, longestStreak } from './failure-streaks.js';

export interface RunUsage {
  activeMs: number;
  outputTokens: number;
  failures: FailureStreaks;
}

/** A scenario's limits; null means the format has no such limit. */
export interface RunLimits {
  maxRuntimeSeconds: number | null;
  maxTotalOutputTokens: number | null;
  maxConsecutiveFailures: number;
}

export type BudgetStopReason = 'max_runtime_seconds' | 'max_total_output_tokens';

export type LimitStop =
  | { status: 'completed'; stopReason: BudgetStopReason }
  | { status: 'failed'; stopReason: string };

/** The failure limit alone: an agent or a model that failed `max` steps in a row fails the run. */
export function checkFailures(failures: FailureStreaks, max: number): LimitStop | null {
  const worst = longestStreak(failures);
  if (worst === null || worst.count < max) return null;
  const who = worst.kind === 'agent' ? worst.name : `model ${worst.name}`;
  return {
    status: 'failed',
    stopReason: `${who} failed ${worst.count} steps in a row; check that the model server is running and has the model, then resume the run`,
  };
}

/** The budget alone: runtime and output tokens. */
export function checkBudget(usage: Pick<RunUsage, 'activeMs' | 'outputTokens'>, limits: RunLimits) {
  if (limits.maxRuntimeSeconds !== null && usage.activeMs >= limits.maxRuntimeSeconds * 1000)
    return { status: 'completed' as const, stopReason: 'max_runtime_seconds' as const };
  if (limits.maxTotalOutputTokens !== null && usage.outputTokens >= limits.maxTotalOutputTokens) {
    return { status: 'completed' as const, stopReason: 'max_total_output_tokens' as const };
  }
  return null;
}

export function checkLimits(usage: RunUsage, limits: RunLimits): LimitStop | null {
  return checkFailures(usage.failures, limits.maxConsecutiveFailures) ?? checkBudget(usage, limits);
}

/** The limits a scenario sets (its `stop` and `reliability` blocks). */
export function limitsOf(scenario: {
  stop: { max_runtime_seconds: number | null; max_total_output_tokens: number | null };
  reliability: { max_consecutive_failures: number };
}): RunLimits {
  return {
    maxRuntimeSeconds: scenario.stop.max_runtime_seconds,
    maxTotalOutputTokens: scenario.stop.max_total_output_tokens,
    maxConsecutiveFailures: scenario.reliability.max_consecutive_failures,
  };
}

/** The limits a scenario sets, checked against a run's usage. */
export function checkScenarioLimits(
  usage: RunUsage,
  scenario: Parameters<typeof limitsOf>[0],
): LimitStop | null {
  return checkLimits(usage, limitsOf(scenario));
}

/**
 * One line saying which stop conditions are in force, for `validate`, a run's start and its
 * transcript. `failureLimit: false` for a format that records failed steps and goes on instead.
 */
export function describeStopConditions(
  scenario: {
    stop: {
      max_runtime_seconds: number | null;
      max_total_output_tokens: number | null;
      judge_early_stop: boolean;
    };
    reliability: { max_consecutive_failures: number };
  },
  rounds: string,
  options: { failureLimit?: boolean } = {},
): string {
  const parts = [rounds];
  if (scenario.stop.max_runtime_seconds !== null)
    parts.push(`${scenario.stop.max_runtime_seconds} s of active time`);
  if (scenario.stop.max_total_output_tokens !== null)
    parts.push(`${scenario.stop.max_total_output_tokens} output tokens in all`);
  if (scenario.stop.judge_early_stop) parts.push('two rounds in a row without new arguments');
  if (options.failureLimit !== false) {
    parts.push(
      `${scenario.reliability.max_consecutive_failures} failed steps in a row by one agent or model (failed)`,
    );
  }
  return `Stops at: ${parts.join('; ')}`;
}
