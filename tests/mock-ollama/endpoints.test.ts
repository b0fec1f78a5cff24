import { Ollama } from 'ollama';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { json, post } from './helpers.js';

describe('mock Ollama metadata endpoints', () => {
  let server: MockOllama;
  let client: Ollama;

  beforeAll(async () => {
    server = await startMockOllama({ models: ['llama3', 'qwen2.5:7b', 'tiny:1.5b-q8_0'] });
    client = new Ollama({ host: server.url });
  });
  afterAll(() => server.close());

  it('listens on an ephemeral local port and answers the root probe', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('Ollama is running');
  });

  it('reports a version through the official client', async () => {
    const { version } = await client.version();
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('lists models with tags, digests and details', async () => {
    const { models } = await client.list();
    expect(models.map((m) => m.name)).toEqual(['llama3:latest', 'qwen2.5:7b', 'tiny:1.5b-q8_0']);
    const llama = models[0];
    expect(llama?.model).toBe('llama3:latest');
    expect(llama?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(llama?.size).toBeGreaterThan(1e9);
    expect(llama?.details).toMatchObject({ format: 'gguf', family: 'llama', parameter_size: '8.0B' });
    expect(models[1]?.details.family).toBe('qwen2');
    expect(models[2]?.details).toMatchObject({ parameter_size: '1.5B', quantization_level: 'Q8_0' });
    expect(Number.isNaN(Date.parse(String(llama?.modified_at)))).toBe(false);
  });

  it('shows a known model with its context length, with or without the tag', async () => {
    const shown = await client.show({ model: 'llama3' });
    // The client types model_info as a Map, but on the wire it is a plain JSON object.
    const info = shown.model_info as unknown as Record<string, unknown>;
    expect(info['llama.context_length']).toBe(8192);
    expect(shown.details.family).toBe('llama');
    expect(shown.template).toContain('<|assistant|>');
    expect(shown.parameters).toContain('num_ctx 8192');
    expect(shown.modelfile).toContain('FROM llama3:latest');
    const tagged = await post(`${server.url}/api/show`, { model: 'llama3:latest' });
    expect(tagged.status).toBe(200);
  });

  it('answers /api/show for an unknown model with 404', async () => {
    const response = await post(`${server.url}/api/show`, { model: 'nope' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "model 'nope' not found" });
  });

  it('lists loaded models in /api/ps after a request', async () => {
    await client.chat({ model: 'qwen2.5:7b', messages: [{ role: 'user', content: 'hi' }] });
    const { models } = await client.ps();
    const loaded = models.find((m) => m.name === 'qwen2.5:7b');
    expect(loaded).toBeDefined();
    expect(loaded?.size_vram).toBe(loaded?.size);
    expect(Date.parse(String(loaded?.expires_at))).toBeGreaterThan(Date.now());
    expect(loaded?.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('uses the exact Ollama wording for an unknown model on chat and generate', async () => {
    for (const path of ['/api/chat', '/api/generate']) {
      const response = await post(`${server.url}${path}`, { model: 'mystery', messages: [], prompt: 'x' });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toEqual({ error: 'model "mystery" not found, try pulling it first' });
    }
    await expect(client.chat({ model: 'mystery', messages: [] })).rejects.toMatchObject({
      status_code: 404,
      error: 'model "mystery" not found, try pulling it first',
    });
  });

  it('rejects invalid JSON and a missing model with 400 and an error body', async () => {
    const invalid = await post(`${server.url}/api/chat`, '{"model": "llama3",');
    expect(invalid.status).toBe(400);
    expect((await json(invalid)).error).toMatch(/invalid JSON/);
    const missing = await post(`${server.url}/api/chat`, { messages: [] });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: 'model is required' });
    const badMessages = await post(`${server.url}/api/chat`, { model: 'llama3', messages: 'hi' });
    expect(badMessages.status).toBe(400);
  });

  it('answers unknown routes with 404 and records every request', async () => {
    const before = server.requests.length;
    const response = await fetch(`${server.url}/api/unknown`);
    expect(response.status).toBe(404);
    await response.text();
    const recorded = server.requests.slice(before);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ method: 'GET', path: '/api/unknown', status: 404 });
    expect(server.stats().requests).toBeGreaterThanOrEqual(server.requests.length);
  });
});
