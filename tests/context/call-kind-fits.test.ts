/**
 * The checks `doctor` makes before a run: each call kind's first prompt, built by the format's own
 * builders, fitted to the window at the model's measured rate with the code the run uses; and the
 * rate measured on the server (its tokenizer, or one short call's prompt tokens).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/config/load-scenario.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import { OpenAiProvider } from '../../src/llm/openai-provider.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { fitCallKinds, measureRate, rateSample } from '../../src/session/call-kind-fits.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const SHIPPED = [
  'scenarios/abortion.yaml',
  'scenarios/duel-remote-work.yaml',
  'scenarios/formal-car-free-cities.yaml',
  'scenarios/critique-rate-limiter.yaml',
  'scenarios/council-billing-database.yaml',
];

describe('each call kind’s first prompt against the window', () => {
  for (const file of SHIPPED) {
    it(`${file}: fits its own window at 4 characters a token, and not a tenth of it at 1.5`, async () => {
      const scenario = await loadScenario(path.join(root, file));
      const window = scenario.model_options.context_window;
      const fits = fitCallKinds(scenario, window, new Map());
      expect(fits.length).toBeGreaterThanOrEqual(2);
      for (const fit of fits) {
        expect(fit.error, fit.error?.message).toBeUndefined();
        expect(fit.promptTokens).toBeGreaterThan(50);
      }
      const slow = new Map(fits.map((fit) => [fit.call.model, 1.5]));
      const small = fitCallKinds(scenario, 1500, slow);
      const refused = small.filter((fit) => fit.error !== undefined);
      expect(refused.length).toBeGreaterThan(0);
      for (const fit of refused) {
        expect(fit.error?.message).toContain(
          `the context window is too small: the prompt for ${fit.call.what} does not fit in a context window of 1500 tokens`,
        );
        expect(fit.error?.message).toContain('(at 1.50 characters per token)');
      }
    });
  }
});

describe('the rate measured on the server', () => {
  let server: MockOllama;
  beforeAll(async () => {
    server = await startMockOllama({ models: ['mistral', 'tiny'], vocabularies: { tiny: 'small' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('by the server’s tokenizer on a llama-server, by one short call on Ollama', async () => {
    const scenario = await loadScenario(path.join(root, 'scenarios/duel-remote-work.yaml'));
    const judge = scenario.format === 'duel' ? scenario.judge.model : '';
    const sample = rateSample(scenario, judge);
    expect(sample.length).toBeGreaterThan(1000);
    const openAi = new OpenAiProvider({ baseUrl: `${server.url}/v1` });
    const byTokenizer = await measureRate(openAi, 'tiny', sample, 8192);
    expect(byTokenizer?.how).toBe('tokenizer');
    expect(byTokenizer?.charsPerToken).toBeGreaterThan(1.5);
    expect(byTokenizer?.charsPerToken).toBeLessThan(2.6);
    const ollama = new OllamaProvider({ host: server.url });
    const byCall = await measureRate(ollama, 'tiny', sample, 8192);
    expect(byCall?.how).toBe('call');
    // The call's prompt carries the chat template's few tokens besides the sample.
    expect(byCall?.charsPerToken).toBeGreaterThan(1.5);
    expect(byCall?.charsPerToken).toBeLessThanOrEqual(byTokenizer?.charsPerToken ?? 0);
    const standard = await measureRate(ollama, 'mistral', sample, 8192);
    expect(standard?.charsPerToken).toBeGreaterThan(3.3);
  });
});
