/** Ollama's load and unload requests: an empty chat or generate loads a model without running it. */
import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { debateMessages, json, post } from './helpers.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(profile: 'desktop-gpu' | 'desktop-gpu-small'): Promise<MockOllama> {
  const server = await startMockOllama({ models: ['llama3', 'mistral'], profile });
  servers.push(server);
  return server;
}

describe('load requests', () => {
  it('loads a model with an empty chat, so the first real request pays no load', async () => {
    const server = await start('desktop-gpu');
    const client = new Ollama({ host: server.url });
    const loaded = await json(await post(`${server.url}/api/chat`, { model: 'llama3', messages: [] }));
    expect(loaded).toMatchObject({
      model: 'llama3',
      done: true,
      done_reason: 'load',
      message: { role: 'assistant', content: '' },
    });
    expect((await client.ps()).models.map((model) => model.name)).toEqual(['llama3:latest']);
    expect(server.stats()).toMatchObject({ modelLoads: 1, completions: 0 });
    const first = await client.chat({ model: 'llama3', messages: debateMessages() });
    expect(first.load_duration).toBe(0);
  });

  it('loads with an empty generate, renews a loaded model without a second load, and keeps its cache', async () => {
    const server = await start('desktop-gpu');
    const client = new Ollama({ host: server.url });
    const loaded = await json(await post(`${server.url}/api/generate`, { model: 'mistral', keep_alive: -1 }));
    expect(loaded).toMatchObject({ done: true, done_reason: 'load', response: '' });
    await client.chat({ model: 'mistral', messages: debateMessages() });
    await post(`${server.url}/api/chat`, { model: 'mistral', messages: [], keep_alive: '10m' });
    server.resetStats();
    const again = await client.chat({ model: 'mistral', messages: debateMessages() });
    expect(server.stats()).toMatchObject({ modelLoads: 0, cachedPromptTokens: again.prompt_eval_count - 1 });
  });

  it('unloads with keep_alive 0 and counts a load that evicts another model', async () => {
    const server = await start('desktop-gpu-small');
    const client = new Ollama({ host: server.url });
    await post(`${server.url}/api/chat`, { model: 'llama3', messages: [] });
    await post(`${server.url}/api/chat`, { model: 'mistral', messages: [] });
    expect((await client.ps()).models.map((model) => model.name)).toEqual(['mistral:latest']);
    const unloaded = await json(
      await post(`${server.url}/api/chat`, { model: 'mistral', messages: [], keep_alive: 0 }),
    );
    expect(unloaded).toMatchObject({ done: true, done_reason: 'unload' });
    expect((await client.ps()).models).toEqual([]);
    expect(server.stats().modelLoads).toBe(2);
  });
});
