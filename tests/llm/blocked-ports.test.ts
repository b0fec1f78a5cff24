/**
 * An Ollama on a port the fetch standard refuses ("bad port": 6000, 6665-6669, 10080, ...) is
 * reached like any other: the listing, the version and a chat all go through undici's request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';

// Ports on the fetch standard's list; the test takes the first one free on this machine.
const BAD_PORTS = [6000, 6665, 6666, 6667, 6668, 6669, 10080, 6697, 4190, 6679];

let server: MockOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function onBadPort(): Promise<MockOllama> {
  for (const port of BAD_PORTS) {
    try {
      return await startMockOllama({ models: ['llama3'], port, profile: 'instant' });
    } catch {
      // In use: the next one.
    }
  }
  throw new Error(`none of the ports ${BAD_PORTS.join(', ')} is free`);
}

describe('an Ollama on a port that fetch refuses', () => {
  it('lists its models, gives its version and answers a chat', async () => {
    server = await onBadPort();
    const port = Number(new URL(server.url).port);
    expect(BAD_PORTS).toContain(port);
    const provider = new OllamaProvider({ host: server.url });
    expect((await provider.listModels()).map((model) => model.name)).toContain('llama3:latest');
    expect(await provider.version()).toMatch(/\d/);
    const answer = await provider.chat({
      model: 'llama3',
      messages: [{ role: 'user', content: 'Say something about tea.' }],
      maxTokens: 20,
      contextWindow: 2048,
      temperature: 0,
      seed: 1,
    });
    expect(answer.text.length).toBeGreaterThan(0);
  });
});
