/**
 * Checks that span several fields (the zod schema checks each field on its own). Returns problems
 * (which refuse the file) and warnings (valid but unusual values).
 */
import { councilBudgetWarnings } from './council-budget-fit.js';
import type { RuleFinding } from './rule-finding.js';
import type { FormalFile, KnockoutFile, ScenarioFile } from './scenario-schema.js';

const WEIGHT_TOLERANCE = 1e-6;

type Findings = { problems: RuleFinding[]; warnings: RuleFinding[] };

/**
 * `raw` is the file's data as written, before defaults: some values are worth a warning only when
 * the file sets them (a default is not the author's choice).
 */
export function checkScenarioRules(scenario: ScenarioFile, raw: unknown = {}): Findings {
  const findings =
    scenario.format === 'knockout'
      ? checkKnockoutRules(scenario, raw)
      : scenario.format === 'formal'
        ? checkFormalRules(scenario)
        : scenario.format === 'council'
          ? { problems: [], warnings: councilBudgetWarnings(scenario) }
          : { problems: [], warnings: [] };
  findings.problems.push(...providerProblems(scenario));
  return findings;
}

/** A model sent to two servers would have no single answer to "where does this call go?". */
function providerProblems(scenario: ScenarioFile): RuleFinding[] {
  const owner = new Map<string, string>();
  const problems: RuleFinding[] = [];
  for (const [name, provider] of Object.entries(scenario.providers)) {
    provider.models.forEach((model, index) => {
      const earlier = owner.get(model);
      if (earlier !== undefined) {
        problems.push({
          path: ['providers', name, 'models', index],
          message: `"${model}" is already served by provider "${earlier}"; list each model under one provider`,
        });
      } else owner.set(model, name);
    });
  }
  return problems;
}

function checkFormalRules(scenario: FormalFile): Findings {
  const problems: RuleFinding[] = [];
  const warnings: RuleFinding[] = [];
  const [first, second] = scenario.debaters ?? [];
  if (first && second && first.model === second.model) {
    problems.push({
      path: ['debaters', 1, 'model'],
      message: `must differ from debaters[0].model ("${first.model}"): a formal debate needs two distinct models`,
    });
  }
  if (first && second && first.name.trim().toLowerCase() === second.name.trim().toLowerCase()) {
    problems.push({ path: ['debaters', 1, 'name'], message: 'the two debaters need different names' });
  }
  if (scenario.verdict.enabled)
    problems.push(...weightProblems(scenario.verdict.criteria, ['verdict', 'criteria']));
  const limit = scenario.statements.word_limit;
  if (limit !== undefined && limit * 1.4 > scenario.model_options.max_tokens) {
    warnings.push({
      path: ['statements', 'word_limit'],
      message: `${limit} words may need more than model_options.max_tokens (${scenario.model_options.max_tokens}) tokens`,
    });
  }
  return { problems, warnings };
}

function weightProblems(
  criteria: Record<string, { weight: number }>,
  path: Array<string | number>,
): RuleFinding[] {
  const entries = Object.entries(criteria);
  if (entries.length === 0) return [{ path, message: 'needs at least one criterion' }];
  const sum = entries.reduce((total, [, criterion]) => total + criterion.weight, 0);
  if (Math.abs(sum - 1) <= WEIGHT_TOLERANCE) return [];
  return [
    {
      path,
      message: `weights must add up to 1, they add up to ${Number(sum.toFixed(6))}; adjust the weights`,
    },
  ];
}

/** Whether the file as written sets the value at `path`. */
function isSet(raw: unknown, path: string[]): boolean {
  let value = raw;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return false;
    value = (value as Record<string, unknown>)[key];
  }
  return value !== undefined;
}

function checkKnockoutRules(scenario: KnockoutFile, raw: unknown): Findings {
  const problems: RuleFinding[] = [];
  const warnings: RuleFinding[] = [];

  const xAgents = scenario.agents.filter((agent) => agent.position === 'X');
  const yAgents = scenario.agents.filter((agent) => agent.position === 'Y');
  if (xAgents.length !== 1) {
    problems.push({
      path: ['agents'],
      message: `needs exactly one agent with position X, found ${xAgents.length}; give one agent "position: X"`,
    });
  }
  if (yAgents.length < 2) {
    problems.push({
      path: ['agents'],
      message: `needs at least 2 agents with position Y (one debates, the others judge), found ${yAgents.length}`,
    });
  }
  const seen = new Map<string, number>();
  scenario.agents.forEach((agent, index) => {
    const key = agent.name.trim().toLowerCase();
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else
      problems.push({
        path: ['agents', index, 'name'],
        message: `duplicate agent name "${agent.name}" (also agents[${first}]); every agent needs its own name`,
      });
  });

  problems.push(...weightProblems(scenario.judging.criteria, ['judging', 'criteria']));

  const judges = Math.max(0, yAgents.length - 1);
  if (yAgents.length >= 2 && scenario.rotation.threshold > judges) {
    warnings.push({
      path: ['rotation', 'threshold'],
      message: `is ${scenario.rotation.threshold} but only ${judges} judges vote, so no rotation can happen`,
    });
  }
  // The default limit (3, the knockout specification's) is an upper bound: a smaller panel simply
  // runs out of debaters first. Only a limit the file sets can be a mistake worth pointing out.
  if (
    yAgents.length >= 2 &&
    isSet(raw, ['rotation', 'limit']) &&
    scenario.rotation.limit > yAgents.length - 1
  ) {
    warnings.push({
      path: ['rotation', 'limit'],
      message: `is ${scenario.rotation.limit} but with ${yAgents.length} Y agents at most ${yAgents.length - 1} rotations can happen`,
    });
  }
  if (scenario.debate.rounds > 30) {
    warnings.push({
      path: ['debate', 'rounds'],
      message: `${scenario.debate.rounds} rounds is a very long debate`,
    });
  }
  const budgetTokens = scenario.timer.seconds_per_side * scenario.timer.tokens_per_second;
  if (budgetTokens < 50) {
    warnings.push({
      path: ['timer'],
      message: `each side may speak only about ${Math.floor(budgetTokens)} tokens per round; statements will be cut short`,
    });
  }
  if (scenario.model_options.max_tokens >= scenario.model_options.context_window) {
    problems.push({
      path: ['model_options', 'max_tokens'],
      message: `(${scenario.model_options.max_tokens}) must be smaller than context_window (${scenario.model_options.context_window})`,
    });
  } else if (scenario.model_options.context_window < 2048) {
    warnings.push({
      path: ['model_options', 'context_window'],
      message: `${scenario.model_options.context_window} tokens is small; the transcript will be summarised often`,
    });
  }
  if (scenario.model_options.temperature > 1.5) {
    warnings.push({
      path: ['model_options', 'temperature'],
      message: `${scenario.model_options.temperature} is high; answers may become incoherent`,
    });
  }
  const models = new Set(scenario.agents.map((agent) => agent.model));
  if (models.size > 2) {
    warnings.push({
      path: ['agents'],
      message: `uses ${models.size} different models; a machine that holds fewer in memory will reload models between turns`,
    });
  }
  return { problems, warnings };
}
