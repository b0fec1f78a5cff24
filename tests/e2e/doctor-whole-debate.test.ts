/**
 * `doctor` tries the whole debate with every answer at its cap, as `run` will meet it, for every
 * format: against a server that fixes its window (the simulator speaking like llama-server, with a
 * small vocabulary of about 2 characters a token, counted by its tokenizer), a window in which every
 * first call fits but a later call does not is refused, naming that call in the words `run` stops
 * with; a window the whole debate fits passes. `run` agrees: it refuses the same, before its first
 * call.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { FAST_RETRIES, SMALL_SCENARIOS } from '../helpers/format-scenarios.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const MODELS = ['llama3', 'mistral'];

async function serverWithWindow(contextLength: number): Promise<MockOllama> {
  const server = await startMockOllama({
    models: MODELS,
    contextLength,
    vocabularies: { llama3: 'small', mistral: 'small' },
  });
  servers.push(server);
  return server;
}

function scenarioFile(data: Record<string, unknown>, server: MockOllama) {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(
    file,
    stringify({
      reliability: FAST_RETRIES,
      ...data,
      providers: { local: { type: 'openai', base_url: `${server.url}/v1`, models: MODELS } },
    }),
  );
  return { file, out: path.join(dir, 'runs') };
}

interface Case {
  format: string;
  scenario: Record<string, unknown>;
  /** A window every first call fits, and a later call does not. */
  tight: number;
  /** The call that does not fit there, as the refusal names it. */
  call: string;
  /** A window the whole debate fits. */
  roomy: number;
}

const CASES: Case[] = [
  {
    format: 'knockout',
    scenario: SMALL_SCENARIOS.knockout?.() ?? {},
    tight: 4000,
    call: 'one round does not fit in 4000 tokens: the prompt for',
    roomy: 6000,
  },
  {
    format: 'duel',
    scenario: SMALL_SCENARIOS.duel?.({ judge_max_tokens: 1500, debater_max_tokens: 300 }) ?? {},
    tight: 2500,
    call: 'the prompt for Judge (judgement) does not fit',
    roomy: 3500,
  },
  {
    format: 'formal',
    scenario: SMALL_SCENARIOS.formal?.({ preparation: { max_tokens: 1500 } }) ?? {},
    tight: 3000,
    call: "the prompt for Blaise's opening does not fit",
    roomy: 4000,
  },
  {
    format: 'critique',
    scenario: SMALL_SCENARIOS.critique?.() ?? {},
    tight: 2500,
    call: "the prompt for Ada's refinement does not fit",
    roomy: 3500,
  },
  {
    format: 'council',
    scenario: SMALL_SCENARIOS.council?.({ max_tokens: 1200 }) ?? {},
    tight: 2600,
    call: 'the prompt for Synthesizer (round-3) does not fit',
    roomy: 4000,
  },
  {
    format: 'truth',
    scenario: {
      format: 'truth',
      seed: 3,
      questions: 2,
      max_rounds: 1,
      debaters: { a: { model: 'llama3' }, b: { model: 'mistral' } },
      judge: { model: 'llama3' },
    },
    tight: 1250,
    call: 'the prompt for Judge (verdict) does not fit',
    roomy: 2000,
  },
];

describe('doctor tries the whole debate at its caps, as run will meet it', () => {
  for (const item of CASES) {
    it(`${item.format}: refuses a window a later call cannot fit, naming it as run does, and passes one it can`, async () => {
      const tight = await serverWithWindow(item.tight);
      const scenario = scenarioFile(item.scenario, tight);
      const doctor = await runAgora(['doctor', scenario.file]);
      expect(doctor.code, doctor.stdout).toBe(3);
      // Every call kind's first call fits: the one refusal is the whole debate's, the last line.
      const lines = doctor.stdout.trimEnd().split('\n');
      const refusals = lines.filter((line) => line.startsWith('✗ '));
      expect(refusals, doctor.stdout).toEqual([lines.at(-1)]);
      expect(lines.filter((line) => / before the debate so far, /.test(line)).length).toBeGreaterThan(1);
      expect(refusals[0]).toContain(item.call);
      const run = await runAgora(['run', scenario.file, '--out', scenario.out, '--quiet']);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain(refusals[0]?.slice(2));

      const roomy = await serverWithWindow(item.roomy);
      const fits = await runAgora(['doctor', scenarioFile(item.scenario, roomy).file]);
      expect(fits.code, fits.stdout).toBe(0);
      expect(fits.stdout).toMatch(/✓ the whole debate with every answer at its cap: \d+ calls fit/);
      expect(fits.stdout).not.toContain('✗');
    });
  }
});
