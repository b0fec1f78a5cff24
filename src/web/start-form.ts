/**
 * A debate asked for from the browser's form: checked here as `agora run` would check its flags,
 * except that an invalid optional parameter (rounds, seed, models) is replaced by its default with
 * a notice (seed 001, requirement 10.4). The format and the topic are required.
 */

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { defaultScenario } from '../config/default-scenario.js';
import { applyLineup, parseLineup } from '../config/lineup.js';
import { loadScenario } from '../config/load-scenario.js';
import { seatPerson } from '../config/person-seats.js';
import type { Scenario } from '../config/scenario.js';
import { applyOverrides, settleSeed, withSeed } from '../config/scenario-overrides.js';
import { FORMAT_NAMES, type FormatName } from '../config/scenario-schema.js';
import { UsageError } from '../core/errors.js';
import { scenarioModels } from '../formats/scenario-models.js';
import { type GivenModels, lineupModels } from '../session/given-models.js';
import type { ScenarioChoice } from './pages.js';

export interface StartRequest {
  scenario: Scenario;
  /** Arguments for `agora run` that make the same scenario. */
  args: string[];
  notices: string[];
  /** The models the form named, if it named any that were used. */
  givenModels?: GivenModels;
}

/** The scenario files offered by the form: `*.yaml` in the scenarios folder that load cleanly. */
export async function listScenarioChoices(folder: string): Promise<ScenarioChoice[]> {
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => /\.ya?ml$/.test(name));
  } catch {
    return [];
  }
  const choices: ScenarioChoice[] = [];
  for (const name of names.sort()) {
    try {
      const scenario = await loadScenario(path.join(folder, name));
      const { required, fallbacks } = scenarioModels(scenario);
      choices.push({
        file: name,
        format: scenario.format,
        topic: scenario.topic,
        models: [...required, ...fallbacks],
      });
    } catch {
      // A scenario with errors is left out of the form; `agora validate` explains it.
    }
  }
  return choices;
}

const field = (input: Record<string, unknown>, name: string) => {
  const value = input[name];
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
};

/**
 * The form's two models of a two-sided format, as line-up keys: Position X and Y of a knockout,
 * side A and B of a duel, the first and second debater of a formal debate (whose sides the seed draws).
 */
export const SIDE_MODEL_KEYS: Partial<Record<FormatName, [string, string]>> = {
  knockout: ['x', 'y'],
  duel: ['a', 'b'],
  formal: ['a', 'b'],
};

/**
 * The line-up the form asks for: the model for every agent (`all=MODEL`), then each side's model
 * (`model_first`, `model_second`), which take precedence for their side.
 */
function modelsField(input: Record<string, unknown>, format: FormatName, notices: string[]): string {
  const parts = [field(input, 'models')].filter((part) => part !== '');
  const sides = (['model_first', 'model_second'] as const).map((name, at) => {
    const model = field(input, name);
    // A side's field names that side's model and nothing else: a line-up inside it (a comma, a
    // `role=`) would move other agents' models.
    if (/[,=\s]/.test(model)) {
      throw new UsageError(
        `${name} (the ${at === 0 ? 'first' : 'second'} side's model) must be one model name, such as llama3:8b; got "${model}"`,
      );
    }
    return model;
  });
  if (sides.some((model) => model !== '')) {
    const keys = SIDE_MODEL_KEYS[format];
    if (!keys) notices.push(`A ${format} debate has no two sides, so the models per side are ignored.`);
    else
      sides.forEach((model, at) => {
        if (model !== '') parts.push(`${keys[at]}=${model}`);
      });
  }
  return parts.join(',');
}

export async function readStartRequest(
  input: Record<string, unknown>,
  options: { scenariosDir: string; choices: ScenarioChoice[]; cwd: string },
): Promise<StartRequest> {
  const notices: string[] = [];
  const format = field(input, 'format');
  if (!(FORMAT_NAMES as string[]).includes(format)) {
    throw new UsageError(`format must be one of ${FORMAT_NAMES.join(', ')}; got "${format}"`);
  }
  const file = field(input, 'scenario');
  const choice = file ? options.choices.find((candidate) => candidate.file === file) : undefined;
  if (file && !choice) throw new UsageError(`there is no scenario "${file}" in ${options.scenariosDir}`);
  if (choice && choice.format !== format) {
    throw new UsageError(
      `${choice.file} is a ${choice.format} scenario, not ${format}; pick one or the other`,
    );
  }
  const topic = field(input, 'topic');
  if (!choice && topic === '')
    throw new UsageError('the topic must not be empty: write the motion to debate');
  if (topic.length > 2000) throw new UsageError('the topic is longer than 2,000 characters; shorten it');

  const scenarioFile = choice ? path.join(options.scenariosDir, choice.file) : undefined;
  let scenario = scenarioFile
    ? await loadScenario(scenarioFile)
    : await defaultScenario(format as FormatName, topic, options.cwd);
  const args = ['run', ...(scenarioFile ? [scenarioFile] : ['--format', format])];
  if (topic !== '') {
    scenario = applyOverrides(scenario, { topic });
    args.push('--topic', topic);
  }

  const rounds = field(input, 'rounds');
  if (rounds !== '') {
    const number = Number(rounds);
    const fixed = format === 'formal' || format === 'council';
    if (fixed) notices.push(`Rounds do not apply to a ${format} debate (its phases are fixed): ignored.`);
    else if (!Number.isInteger(number) || number < 1 || number > 50) {
      notices.push(`Rounds "${rounds}" is not a whole number from 1 to 50: the default is used.`);
    } else {
      scenario = applyOverrides(scenario, { rounds: number });
      args.push('--rounds', String(number));
    }
  }
  const seed = field(input, 'seed');
  if (seed !== '') {
    const number = Number(seed);
    // Any whole number, negative too, as on the command line (`--seed -1`) and in a scenario file.
    if (!Number.isSafeInteger(number)) {
      const instead = scenario.randomSeed
        ? 'one is drawn at random'
        : `the default (${scenario.seed}) is used`;
      notices.push(`Seed "${seed}" is not a whole number: ${instead}.`);
    } else {
      scenario = applyOverrides(scenario, { seed: number });
      args.push(`--seed=${number}`);
    }
  }
  if (scenario.randomSeed) {
    // Drawn here, not in the worker, so that the run id names the seed the debate uses.
    const drawn = settleSeed(scenario).seed;
    scenario = withSeed(scenario, drawn);
    args.push(`--seed=${drawn}`);
    notices.push(`Seed ${drawn} was drawn at random; give it again to repeat this debate.`);
  }
  const models = modelsField(input, format as FormatName, notices);
  let givenModels: GivenModels | undefined;
  if (models !== '') {
    try {
      const lineup = parseLineup(models);
      scenario = applyLineup(scenario, lineup);
      args.push('--models', models);
      givenModels = { by: `the models fields ("${models}")`, models: lineupModels(lineup) };
    } catch (error) {
      notices.push(
        `Models "${models}" could not be used (${(error as Error).message}): the default models are used.`,
      );
    }
  }
  const human = field(input, 'human');
  if (human !== '') {
    // The launch has the person speak in the run page's writing box (see debate-launch.ts).
    scenario = seatPerson(scenario, human);
    args.push('--human', human);
  }
  return { scenario, args, notices, ...(givenModels ? { givenModels } : {}) };
}
