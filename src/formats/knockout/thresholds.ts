import type { KnockoutScenario } from '../../config/scenario.js';

/** The SRS's performance target (section 6): a round should take at most 30 s of real time. */
export const SLOW_ROUND_MS = 30_000;

/** The round time limit of a scenario, in ms; runs recorded before the setting existed use 30 s. */
export function roundLimitMs(scenario: KnockoutScenario): number {
  const seconds = (scenario as { round_time_limit?: { seconds?: number } }).round_time_limit?.seconds;
  return seconds === undefined ? SLOW_ROUND_MS : seconds * 1000;
}

/** Whether the scenario asks for its round time limit to be kept, not only reported. */
export function keepsRoundLimit(scenario: KnockoutScenario): boolean {
  return (scenario as { round_time_limit?: { mode?: string } }).round_time_limit?.mode === 'keep';
}
