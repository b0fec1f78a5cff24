import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario, parseScenario } from '../../src/config/load-scenario.js';
import { ConfigError } from '../../src/core/errors.js';
import { projectRoot } from '../helpers/cli.js';

const agents = [
  'agents:',
  '  - { name: A, position: X, model: llama3, role: r }',
  '  - { name: B, position: Y, model: mistral, role: r }',
  '  - { name: C, position: Y, model: mistral, role: r }',
  '  - { name: D, position: Y, model: mistral, role: r }',
];

const scenarioWith = (providers: string[]) =>
  parseScenario(
    [
      'topic: Should cities ban cars?',
      'positions: { x: Car-free, y: Car-friendly }',
      ...agents,
      ...providers,
    ].join('\n'),
    path.join(projectRoot, 'virtual.yaml'),
  );

async function issues(providers: string[]): Promise<string[]> {
  const error = await scenarioWith(providers).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(error)}`);
  return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
}

describe('scenario providers', () => {
  it('reads a provider map with its type, base URL, key variable name and models', async () => {
    const scenario = await scenarioWith([
      'providers:',
      '  lan_gpu: { type: openai, base_url: "http://10.0.0.5:8000/v1", api_key_env: LLM_KEY, models: [mistral] }',
    ]);
    expect(scenario.providers).toEqual({
      lan_gpu: {
        type: 'openai',
        base_url: 'http://10.0.0.5:8000/v1',
        api_key_env: 'LLM_KEY',
        models: ['mistral'],
      },
    });
  });

  it('defaults to no other server', async () => {
    expect((await scenarioWith([])).providers).toEqual({});
  });

  it('refuses an unknown type, a URL without http(s), a key given instead of a variable name, and a model listed twice', async () => {
    const found = await issues([
      'providers:',
      '  one: { type: openia, base_url: "http://127.0.0.1:8080/v1", models: [mistral] }',
      '  two: { type: openai, base_url: "127.0.0.1:8080", models: [mistral] }',
      '  three: { type: openai, base_url: "http://127.0.0.1:8081/v1", api_key_env: "sk-abc 123", models: [qwen] }',
    ]);
    expect(found.join('\n')).toMatch(/providers\.one\.type: must be "ollama" or "openai"/);
    expect(found.join('\n')).toMatch(/providers\.two\.base_url: must be an http:\/\/ or https:\/\/ URL/);
    expect(found.join('\n')).toMatch(
      /providers\.three\.api_key_env: must be the NAME of an environment variable/,
    );

    const twice = await issues([
      'providers:',
      '  one: { type: openai, base_url: "http://127.0.0.1:8080/v1", models: [mistral] }',
      '  two: { type: openai, base_url: "http://127.0.0.1:8081/v1", models: [mistral] }',
    ]);
    expect(twice.join('\n')).toMatch(
      /providers\.two\.models\[0\]: "mistral" is already served by provider "one"/,
    );
  });

  it('ships a mixed-providers scenario that validates', async () => {
    const scenario = await loadScenario(path.join(projectRoot, 'scenarios', 'mixed-providers.yaml'));
    expect(Object.keys(scenario.providers)).toEqual(['llama_server']);
  });
});
