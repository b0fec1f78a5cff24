/**
 * `npm run bench`: where the time of a knockout round goes. Runs the 6-round knockout of
 * `scenarios/abortion.yaml` against the simulator, which applies each model family's chat template
 * and answers with statements of 350-650 words, on the desktop profiles: a GPU with two models
 * resident, the same GPU holding one model at a time (to count loads) and the CPU. Prints every
 * round's simulated seconds by call kind beside its decode floor, the headline figures, the same
 * debate with every agent on one model (llama3, then mistral) on the GPU, the same debates with
 * their folds written by a model (`context.summary: model`) instead of from the claims ledger (the
 * default), and the cache share of every shipped knockout scenario. Results also go to
 * bench/rounds-results.json.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { loadScenario } from '../src/config/load-scenario.js';
import type { KnockoutScenario } from '../src/config/scenario.js';
import { PROFILES, type ProfileName } from '../src/mock-ollama/index.js';
import { recordedKnockout } from './recorded-knockout.js';
import type { DebateFigures } from './round-figures.js';
import {
  describeProfile,
  headlineTable,
  roundsTable,
  sameModelTable,
  scenariosTable,
} from './round-report.js';

/** Real seconds waited per simulated second: small, but enough for slots and queues to matter. */
const SPEED = 0.0005;
const SPEECH = { minWords: 350, maxWords: 650 };
const REFERENCE = 'scenarios/abortion.yaml';

async function measure(scenario: KnockoutScenario, profileName: ProfileName): Promise<DebateFigures> {
  return (await recordedKnockout(scenario, profileName, { speed: SPEED, speech: SPEECH })).figures;
}

const started = Date.now();
const reference = (await loadScenario(REFERENCE)) as KnockoutScenario;
const gpu = await measure(reference, 'desktop-gpu');
const cpu = await measure(reference, 'desktop-cpu');
const oneModel = await measure(reference, 'desktop-gpu-small');
/** The reference debate with every agent on `model`: one cache holds every participant's prompts. */
const everyAgentOn = (model: string): KnockoutScenario => ({
  ...reference,
  agents: reference.agents.map((agent) => ({ ...agent, model })),
});
/** The reference debate with its folds written by a model (`context.summary: model`). */
const byModel = (scenario: KnockoutScenario): KnockoutScenario => ({
  ...scenario,
  context: { ...scenario.context, summary: 'model' },
});
const modelFolds = [
  { model: 'llama3 (X), mistral (Y)', figures: await measure(byModel(reference), 'desktop-gpu') },
  { model: 'llama3', figures: await measure(byModel(everyAgentOn('llama3')), 'desktop-gpu') },
  { model: 'mistral', figures: await measure(byModel(everyAgentOn('mistral')), 'desktop-gpu') },
];
const modelCpu = await measure(byModel(reference), 'desktop-cpu');
const sameModel = [
  { model: 'llama3', figures: await measure(everyAgentOn('llama3'), 'desktop-gpu') },
  { model: 'mistral', figures: await measure(everyAgentOn('mistral'), 'desktop-gpu') },
];

const shipped: Array<{ file: string; rounds: number; figures: DebateFigures }> = [];
for (const name of readdirSync('scenarios')
  .filter((file) => file.endsWith('.yaml'))
  .sort()) {
  const file = `scenarios/${name}`;
  const scenario = await loadScenario(file);
  if (scenario.format !== 'knockout') continue;
  const knockout = scenario as KnockoutScenario;
  const figures = file === REFERENCE ? gpu : await measure(knockout, 'desktop-gpu');
  shipped.push({ file, rounds: knockout.debate.rounds, figures });
}

const out = (text = '') => process.stdout.write(`${text}\n`);
out(`## Knockout rounds: ${REFERENCE}, ${reference.debate.rounds} rounds, statements of 350-650 words`);
out();
out('Simulated seconds. The decode floor is the two statements and the judges’ answers at the decode');
out('rate; loads are model loads wherever they fall (their seconds are not in the other columns).');
for (const [profile, figures] of [
  ['desktop-gpu', gpu],
  ['desktop-cpu', cpu],
  ['desktop-gpu-small', oneModel],
] as const) {
  out();
  out(`### ${describeProfile(PROFILES[profile])}`);
  out();
  out(roundsTable(figures));
}
out();
out('### Headline figures (gpu: desktop-gpu, cpu: desktop-cpu; one model resident: desktop-gpu-small)');
out();
out(headlineTable({ gpu, cpu, oneModel }));
out();
out('### Every agent on one model, desktop-gpu');
out();
out(sameModelTable(sameModel));
for (const { model, figures } of sameModel) {
  out();
  out(`#### Every agent on ${model}`);
  out();
  out(roundsTable(figures));
}
out();
out('### Folds written by a model (context.summary: model), desktop-gpu');
out();
out(sameModelTable(modelFolds));
for (const { model, figures } of modelFolds) {
  out();
  out(`#### ${model}, folds written by a model`);
  out();
  out(roundsTable(figures));
}
out();
out(`#### desktop-cpu, folds written by a model`);
out();
out(roundsTable(modelCpu));
out();
out('### Every shipped knockout scenario on desktop-gpu');
out();
out(scenariosTable(shipped));
process.stderr.write(`(${((Date.now() - started) / 1000).toFixed(0)} s of real time)\n`);

writeFileSync(
  new URL('./rounds-results.json', import.meta.url),
  `${JSON.stringify({ speed: SPEED, speech: SPEECH, gpu, cpu, oneModel, sameModel, modelFolds, modelCpu, shipped }, null, 2)}\n`,
);
