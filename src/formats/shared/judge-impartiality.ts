/**
 * A judge that also debates tends to favour its own side: the formal verdict and the duel's judge
 * are kept off the debaters' models when the scenario leaves the choice open, and a judge that must
 * share a debater's model is pointed out before the run.
 */

import { formalSides } from '../../config/formal-sides.js';
import type { Scenario } from '../../config/scenario.js';

const baseName = (model: string) => model.replace(/:latest$/, '');

/** Models made for something else than conversation: code, embeddings, images. */
const SPECIALISED = /code|coder|embed|minilm|llava|vision/i;

/**
 * The first candidate that is none of the debaters' models, or undefined when every one is. A
 * model made for code or embeddings is taken only when no general model is left.
 */
export function impartialModel(
  candidates: readonly string[],
  debaterModels: readonly string[],
): string | undefined {
  const taken = new Set(debaterModels.map(baseName));
  const free = candidates.filter((model) => !taken.has(baseName(model)));
  return free.find((model) => !SPECIALISED.test(model)) ?? free[0];
}

/**
 * The judge's model and the debaters beside it, for the formats with a judge over two sides. A
 * debater a person speaks for is not the model's side: the judge may share its model.
 */
function judgeAndDebaters(
  scenario: Scenario,
): { judge: string; debaters: Array<{ name: string; model: string }> } | null {
  const found = judgeOverDebaters(scenario);
  return found && { ...found, debaters: found.debaters.filter((debater) => !debater.human) };
}

function judgeOverDebaters(
  scenario: Scenario,
): { judge: string; debaters: Array<{ name: string; model: string; human?: boolean | undefined }> } | null {
  if (scenario.format === 'duel') {
    return { judge: scenario.judge.model, debaters: [scenario.debaters.a, scenario.debaters.b] };
  }
  if (scenario.format === 'formal' && scenario.verdict.enabled && scenario.debaters) {
    const sides = formalSides(scenario);
    // Runs recorded before the judge was settled at the start used the affirmative's model.
    return {
      judge: scenario.verdict.judge_model ?? sides.affirmative.model,
      debaters: [sides.affirmative, sides.negative],
    };
  }
  return null;
}

/** The warning for a judge on a debater's model, or null when the judge is impartial. */
export function sharedJudgeWarning(scenario: Scenario): string | null {
  const found = judgeAndDebaters(scenario);
  if (!found) return null;
  const same = found.debaters.filter((debater) => baseName(debater.model) === baseName(found.judge));
  if (same.length === 0) return null;
  return `the judge uses ${found.judge}, which also debates as ${same.map((debater) => debater.name).join(' and ')}; its verdicts may favour its own side. A model neither debater uses makes a fairer judge (e.g. \`ollama pull qwen2.5\`, then name it as the judge's model)`;
}
