/**
 * What must be settled before a new run starts and then stays fixed in its log: a formal debate
 * without named debaters gets two distinct models picked (by seed) from those the server has, and a
 * formal verdict without a named judge gets a model that is neither debater's when there is one.
 */

import { formalSides } from '../config/formal-sides.js';
import type { FormalScenario, Scenario } from '../config/scenario.js';
import { impartialModel } from '../formats/shared/judge-impartiality.js';
import { ProviderError } from '../llm/errors.js';
import type { ModelProvider } from '../llm/provider.js';
import { seededPick } from '../rotation/seeded-random.js';
import { fitContextWindow, type WindowFit } from './context-window-fit.js';

const baseName = (model: string) => model.replace(/:latest$/, '');

export async function prepareScenario(scenario: Scenario, provider: ModelProvider): Promise<Scenario> {
  if (scenario.format !== 'formal') return scenario;
  const needsJudge = scenario.verdict.enabled && !scenario.verdict.judge_model;
  if (scenario.debaters && !needsJudge) return scenario;
  const available = [...new Set((await provider.listModels()).map((model) => baseName(model.name)))].sort();
  const withDebaters = scenario.debaters
    ? scenario
    : { ...scenario, debaters: pickDebaters(scenario, available, provider) };
  if (!needsJudge) return withDebaters;
  const sides = formalSides(withDebaters);
  // A seat a person speaks for does not argue with its model: the judge may use it.
  const debaterModels = [sides.affirmative, sides.negative]
    .filter((debater) => !debater.human)
    .map((debater) => debater.model);
  // The scenario's own models first (the moderator, the debaters' fallbacks), then the server's.
  const offered = [
    ...(scenario.statements.moderator_model ? [scenario.statements.moderator_model] : []),
    ...sides.affirmative.fallback_models,
    ...sides.negative.fallback_models,
  ].filter((model) => available.includes(baseName(model)));
  const judge = impartialModel([...offered, ...available], debaterModels) ?? sides.affirmative.model;
  return { ...withDebaters, verdict: { ...withDebaters.verdict, judge_model: judge } };
}

function pickDebaters(
  scenario: FormalScenario,
  available: string[],
  provider: ModelProvider,
): NonNullable<FormalScenario['debaters']> {
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
  return [first, second].map((model) => ({ name: baseName(model), model, fallback_models: [] }));
}

/** The line that tells the user who argues which side (seed 001, requirement 2.3). */
export function describeSides(scenario: Scenario): string | null {
  if (scenario.format !== 'formal') return null;
  const sides = formalSides(scenario);
  const who = (debater: (typeof sides)['affirmative']) =>
    debater.human ? `${debater.name}, the person at the podium` : `${debater.name} on ${debater.model}`;
  return `Affirmative (${scenario.positions.affirmative}): ${who(sides.affirmative)}; negative (${scenario.positions.negative}): ${who(sides.negative)}`;
}

/**
 * A queued debate settled for the servers it will run on (a batch's or a worker's): its formal
 * models picked, and its window lowered to the smallest window among those servers, with why.
 */
export async function settleForServers(scenario: Scenario, provider: ModelProvider): Promise<WindowFit> {
  return fitContextWindow(await prepareScenario(scenario, provider), provider);
}
