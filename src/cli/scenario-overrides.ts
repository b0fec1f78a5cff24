/** Command-line overrides of a scenario (--seed, --rounds, --topic), checked like the file itself. */
import type { Scenario } from '../config/scenario.js';
import { UsageError } from '../core/errors.js';

export function applyOverrides(
  scenario: Scenario,
  overrides: { seed?: number; rounds?: number; topic?: string },
): Scenario {
  let result = scenario;
  if (overrides.seed !== undefined) result = { ...result, seed: overrides.seed };
  if (overrides.rounds !== undefined)
    result = { ...result, debate: { ...result.debate, rounds: overrides.rounds } };
  if (overrides.topic !== undefined) {
    if (overrides.topic.trim() === '') throw new UsageError('--topic must not be empty or only spaces');
    result = { ...result, topic: overrides.topic.trim() };
  }
  return result;
}
