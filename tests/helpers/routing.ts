/** Which API of the simulator each model's calls went to, for scenarios that route some models elsewhere. */
import { expect } from 'vitest';
import type { MockOllama } from '../../src/mock-ollama/index.js';

/**
 * Checks that the simulator took calls on both of its APIs: every Ollama chat for `ollama`, every
 * OpenAI-compatible chat for `openai`, each of those with `key` as its bearer token when given.
 */
export function expectChatsSplit(
  server: MockOllama,
  models: { ollama: string; openai: string; key?: string },
): void {
  const ollamaChats = server.requests.filter((request) => request.path === '/api/chat');
  const openAiChats = server.requests.filter((request) => request.path === '/v1/chat/completions');
  expect(ollamaChats.length).toBeGreaterThan(0);
  expect(openAiChats.length).toBeGreaterThan(0);
  for (const request of ollamaChats) expect(request.body).toMatchObject({ model: models.ollama });
  for (const request of openAiChats) {
    expect(request.body).toMatchObject({ model: models.openai });
    if (models.key !== undefined) expect(request.authorization).toBe(`Bearer ${models.key}`);
  }
}
