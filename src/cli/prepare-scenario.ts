/**
 * What must be settled before a new run starts and then stays fixed in its log: a formal debate
 * without named debaters gets two distinct models picked (by seed) from those the server has.
 */
import type { Scenario } from '../config/scenario.js';
import { formalSides } from '../formats/formal/formal-plan.js';
import { ProviderError } from '../llm/errors.js';
import type { ModelProvider } from '../llm/provider.js';
import { seededPick } from '../rotation/seeded-random.js';

const baseName = (model: string) => model.replace(/:latest$/, '');

export async function prepareScenario(scenario: Scenario, provider: ModelProvider): Promise<Scenario> {
  if (scenario.format !== 'formal' || scenario.debaters) return scenario;
  const available = [...new Set((await provider.listModels()).map((model) => baseName(model.name)))].sort();
  if (available.length < 2) {
    throw new ProviderError(
      'model-not-found',
      `a formal debate needs two different models, and the Ollama at ${provider.host} has ${available.length === 0 ? 'none' : `only ${available[0]}`}. Pull another (e.g. \`ollama pull mistral\`), or name two debaters in the scenario`,
      { host: provider.host },
    );
  }
  const first = seededPick(available, scenario.seed, 'formal:model-1') as string;
  const second = seededPick(
    available.filter((model) => model !== first),
    scenario.seed,
    'formal:model-2',
  ) as string;
  return {
    ...scenario,
    debaters: [first, second].map((model) => ({ name: baseName(model), model, fallback_models: [] })),
  };
}

/** The line that tells the user who argues which side (seed 001, requirement 2.3). */
export function describeSides(scenario: Scenario): string | null {
  if (scenario.format !== 'formal') return null;
  const sides = formalSides(scenario);
  return `Affirmative (${scenario.positions.affirmative}): ${sides.affirmative.name} on ${sides.affirmative.model}; negative (${scenario.positions.negative}): ${sides.negative.name} on ${sides.negative.model}`;
}
