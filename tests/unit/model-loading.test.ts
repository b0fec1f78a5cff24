/**
 * A new run loads its models before its first step: with the window its calls ask for, the first
 * listed model last, and without stopping the run when a load fails.
 */
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseScenario } from '../../src/config/load-scenario.js';
import { formatNamed } from '../../src/formats/index.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import type { ModelProvider } from '../../src/llm/provider.js';
import { createRunDir, driveDebate } from '../../src/manager/debate-manager.js';
import { loadModelsAhead } from '../../src/manager/model-loading.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { tempDir } from '../helpers/cli.js';
import { testScenario } from '../helpers/scenario.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const logger = pino({ enabled: false });

async function knockout(rounds: number) {
  return parseScenario(
    stringify(testScenario({ rounds, contextWindow: 6144 })),
    path.join(tempDir(), 'knockout.yaml'),
  );
}

describe('models loaded before the first step', () => {
  it('loads every model of a new run before its first call, the first listed last, with its window', async () => {
    const server = await startMockOllama({ models: ['llama3', 'mistral'], profile: 'desktop-gpu' });
    servers.push(server);
    const scenario = await knockout(1);
    const format = formatNamed(scenario.format);
    if (!format) throw new Error('no knockout format');
    const { runId, paths } = createRunDir(tempDir(), scenario);
    const outcome = await driveDebate({
      format,
      paths,
      start: { runId, scenario },
      provider: new OllamaProvider({ host: server.url }),
      logger,
    });
    expect(outcome.transcript.status).toBe('completed');
    const calls = server.requests.filter((request) => request.path.startsWith('/api/'));
    const loads = calls.filter((request) => request.path === '/api/generate');
    expect(loads.map((request) => request.body)).toEqual([
      { model: 'mistral', prompt: '', stream: false, options: { num_ctx: 6144 } },
      { model: 'llama3', prompt: '', stream: false, options: { num_ctx: 6144 } },
    ]);
    const firstChat = calls.findIndex((request) => request.path === '/api/chat');
    expect(calls.indexOf(loads[1] as (typeof calls)[number])).toBeLessThan(firstChat);
    // Both models stayed loaded, so no call of the debate loaded one.
    expect(server.stats().modelLoads).toBe(2);
  });

  it('goes on when a load fails, and does nothing for a provider that cannot load ahead', async () => {
    const scenario = await knockout(1);
    const failing: ModelProvider = {
      host: 'test',
      chat: () => Promise.reject(new Error('not called')),
      listModels: () => Promise.resolve([]),
      version: () => Promise.resolve('0'),
      load: (model) => Promise.reject(new Error(`${model} is not there`)),
    };
    const loads = await loadModelsAhead(failing, scenario, { logger });
    expect(loads.map(({ model, failed }) => ({ model, failed }))).toEqual([
      { model: 'mistral', failed: 'mistral is not there' },
      { model: 'llama3', failed: 'llama3 is not there' },
    ]);
    const { load: _, ...withoutLoad } = failing;
    expect(await loadModelsAhead(withoutLoad, scenario, { logger })).toEqual([]);
  });

  it('loads nothing more once a stop is asked for', async () => {
    const scenario = await knockout(1);
    const loaded: string[] = [];
    const provider: ModelProvider = {
      host: 'test',
      chat: () => Promise.reject(new Error('not called')),
      listModels: () => Promise.resolve([]),
      version: () => Promise.resolve('0'),
      load: async (model) => {
        loaded.push(model);
      },
    };
    await loadModelsAhead(provider, scenario, { logger, stopRequested: () => loaded.length > 0 });
    expect(loaded).toEqual(['mistral']);
  });

  it('reports a model the server does not have as not found', async () => {
    const server = await startMockOllama({ models: ['llama3'] });
    servers.push(server);
    const provider = new OllamaProvider({ host: server.url });
    await expect(provider.load('mistral', { contextWindow: 4096 })).rejects.toMatchObject({
      kind: 'model-not-found',
    });
    await provider.load('llama3');
    expect(server.stats().modelLoads).toBe(1);
  });
});
