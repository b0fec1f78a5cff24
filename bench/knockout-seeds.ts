/**
 * `npm run bench:seeds [-- seeds]`: the knockout's round figures over many seeds, not one. A
 * simulated debate's statements depend on its seed and on every word of its prompts, so one run's
 * slowest round or cache share moves with any change of prompt; over seeds 1-8 (by default) of
 * `scenarios/abortion.yaml`, on the desktop GPU profile, with its own models, every agent on
 * llama3 and every agent on mistral, this prints the worst round of any seed, the worst steady
 * round (3 on) against its decode floor, the cache share of all the debates together and the
 * prompt tokens read afresh per debate. Simulated seconds, so the figures do not depend on this
 * machine. Results also go to bench/seeds-results.json.
 */
import { writeFileSync } from 'node:fs';
import { loadScenario } from '../src/config/load-scenario.js';
import type { KnockoutScenario } from '../src/config/scenario.js';
import { recordedKnockout } from './recorded-knockout.js';

const SEEDS = Number(process.argv[2] ?? 8);
const SPEED = 0.0002;
const SPEECH = { minWords: 350, maxWords: 650 };
const REFERENCE = 'scenarios/abortion.yaml';
const PROFILE = 'desktop-gpu' as const;

interface Debate {
  seed: number;
  slowestSeconds: number;
  slowestRound: number;
  worstSteady: number;
  promptTokens: number;
  cachedTokens: number;
}

async function debate(scenario: KnockoutScenario): Promise<Debate> {
  const { figures, promptTokens, cachedTokens } = await recordedKnockout(scenario, PROFILE, {
    speed: SPEED,
    speech: SPEECH,
  });
  return {
    seed: scenario.seed ?? 0,
    slowestSeconds: figures.slowest.totalSeconds,
    slowestRound: figures.slowest.round,
    worstSteady: Math.max(...figures.steadyRatios),
    promptTokens,
    cachedTokens,
  };
}

const reference = await loadScenario(REFERENCE);
if (reference.format !== 'knockout') throw new Error(`${REFERENCE} is not a knockout`);
const lineups: Array<{ label: string; scenario: KnockoutScenario }> = [
  { label: 'its own models (llama3 X, mistral Y)', scenario: reference },
  ...['llama3', 'mistral'].map((model) => ({
    label: `every agent on ${model}`,
    scenario: { ...reference, agents: reference.agents.map((agent) => ({ ...agent, model })) },
  })),
];

const rows = [];
for (const { label, scenario } of lineups) {
  const debates: Debate[] = [];
  for (let seed = 1; seed <= SEEDS; seed += 1) debates.push(await debate({ ...scenario, seed }));
  const slowest = debates.reduce((worst, item) =>
    item.slowestSeconds > worst.slowestSeconds ? item : worst,
  );
  const prompt = debates.reduce((sum, item) => sum + item.promptTokens, 0);
  const cached = debates.reduce((sum, item) => sum + item.cachedTokens, 0);
  rows.push({
    lineup: label,
    slowestRound: `${slowest.slowestSeconds.toFixed(1)} s (seed ${slowest.seed}, round ${slowest.slowestRound})`,
    worstSteady: Math.max(...debates.map((item) => item.worstSteady)),
    cacheShare: cached / prompt,
    shares: debates.map((item) => item.cachedTokens / item.promptTokens),
    prefilledPerDebate: Math.round((prompt - cached) / debates.length),
  });
}

const out = (text = '') => process.stdout.write(`${text}\n`);
out(`## ${REFERENCE} over seeds 1-${SEEDS}, ${PROFILE}, statements of 350-650 words`);
out();
out(
  '| line-up | slowest round of any seed | worst steady round / floor | cache share (each seed) | prefilled per debate |',
);
out('| --- | --- | --- | --- | --- |');
for (const row of rows) {
  out(
    `| ${row.lineup} | ${row.slowestRound} | ${row.worstSteady.toFixed(2)}x | ${row.cacheShare.toFixed(3)} (${row.shares.map((share) => share.toFixed(3)).join(', ')}) | ${row.prefilledPerDebate.toLocaleString('en')} |`,
  );
}
writeFileSync(
  new URL('./seeds-results.json', import.meta.url),
  `${JSON.stringify({ seeds: SEEDS, profile: PROFILE, speech: SPEECH, rows }, null, 2)}\n`,
);
