/** Which models a scenario calls, for preflight and `doctor`, whatever its format. */
import type { Scenario } from '../config/scenario.js';

export function scenarioModels(scenario: Scenario): { required: string[]; fallbacks: string[] } {
  const required = new Set<string>();
  const fallbacks = new Set<string>();
  const add = (participant: { model: string; fallback_models?: string[] }) => {
    required.add(participant.model);
    for (const model of participant.fallback_models ?? []) fallbacks.add(model);
  };
  switch (scenario.format) {
    case 'knockout':
      scenario.agents.forEach(add);
      if (scenario.context.summariser_model) required.add(scenario.context.summariser_model);
      break;
    case 'formal':
      (scenario.debaters ?? []).forEach(add);
      if (scenario.verdict.enabled && scenario.verdict.judge_model)
        required.add(scenario.verdict.judge_model);
      if (scenario.statements.strict_mode && scenario.statements.moderator_model) {
        required.add(scenario.statements.moderator_model);
      }
      break;
    case 'council':
      Object.values(scenario.participants).forEach(add);
      break;
    case 'critique':
      scenario.agents.forEach(add);
      required.add(scenario.judge.model);
      break;
    case 'duel':
      // A duel's debater a person speaks for calls no model.
      for (const debater of [scenario.debaters.a, scenario.debaters.b]) if (!debater.human) add(debater);
      add(scenario.judge);
      break;
    case 'truth':
      add(scenario.debaters.a);
      add(scenario.debaters.b);
      add(scenario.judge);
      break;
  }
  return { required: [...required], fallbacks: [...fallbacks].filter((model) => !required.has(model)) };
}
