/**
 * Whether a council's output-token budget holds its model calls at their full caps: 3 rounds of 4
 * roles at `max_tokens` and the Judge at `judge_max_tokens`, each with `thinking_budget` on top for a
 * role that thinks. A budget below that may cut rounds or the Judge, so `validate` and the start of
 * a run warn about it (the default budget holds the default council with room for repairs).
 */
import type { CouncilFile } from './council-schema.js';
import type { RuleFinding } from './rule-finding.js';

const ROUNDS = 3;
const DEBATING = ['proponent', 'critic', 'analyst', 'synthesizer'] as const;

/** Output tokens of every call of the council at its cap, thinking included. */
export function councilFullCapTokens(scenario: CouncilFile): number {
  const thinking = (think: boolean | undefined) => (think ? scenario.thinking_budget : 0);
  const roles = DEBATING.reduce(
    (sum, role) => sum + ROUNDS * (scenario.max_tokens + thinking(scenario.participants[role].think)),
    0,
  );
  return roles + scenario.judge_max_tokens + thinking(scenario.participants.judge.think);
}

export function councilBudgetWarnings(scenario: CouncilFile): RuleFinding[] {
  const budget = scenario.stop.max_total_output_tokens;
  const needed = councilFullCapTokens(scenario);
  if (budget === null || budget >= needed) return [];
  return [
    {
      path: ['stop', 'max_total_output_tokens'],
      message: `${budget} tokens is less than the council's 13 model calls at their caps (${needed} tokens with max_tokens, judge_max_tokens and any thinking_budget); the budget may cut rounds or the Judge, so raise it (or set null for no limit)`,
    },
  ];
}
