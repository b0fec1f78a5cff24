/**
 * No more chats at once than the server has slots: three judges against a two-slot llama-server
 * would share (and overfill) its cache. The simulator speaks like llama-server, its `/props` says
 * how many slots it has, and the adapter holds the third chat until a slot is free.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiProvider } from '../../src/llm/openai-provider.js';
import type { ChatRequest } from '../../src/llm/provider.js';
import {
  type MockOllama,
  PROFILES,
  type RecordedRequest,
  startMockOllama,
} from '../../src/mock-ollama/index.js';

const request = (content: string): ChatRequest => ({
  model: 'mistral',
  messages: [{ role: 'user', content }],
  maxTokens: 20,
  contextWindow: 4096,
  temperature: 0.7,
  seed: 5,
});

/** The most requests the server was answering at the same moment. */
function mostAtOnce(requests: readonly RecordedRequest[]): number {
  const edges = requests.flatMap((item) => [
    { at: item.receivedAt, step: 1 },
    { at: item.finishedAt ?? Number.POSITIVE_INFINITY, step: -1 },
  ]);
  // At the same instant, an end comes before a start: the slot was free by then.
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let open = 0;
  let most = 0;
  for (const edge of edges) {
    open += edge.step;
    most = Math.max(most, open);
  }
  return most;
}

describe('the server’s slots', () => {
  let server: MockOllama;
  beforeAll(async () => {
    server = await startMockOllama({
      models: ['mistral'],
      profile: { ...PROFILES.instant, parallel: 2 },
      // Each answer takes long enough for the others to be sent meanwhile, on a busy machine too.
      script: [{ match: { text: 'JUDGE' }, reply: 'A verdict.', latencyMs: 1000 }],
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends no more chats at once than /props says the server has slots', async () => {
    const provider = new OpenAiProvider({ baseUrl: `${server.url}/v1`, requestTimeoutMs: 30_000 });
    expect(await provider.slots()).toBe(2);
    const answers = await Promise.all(
      ['JUDGE 1', 'JUDGE 2', 'JUDGE 3', 'JUDGE 4'].map((text) => provider.chat(request(text))),
    );
    expect(answers.map((answer) => answer.text)).toEqual(Array(4).fill('A verdict.'));
    const chats = server.requests.filter((item) => item.path === '/v1/chat/completions');
    expect(chats).toHaveLength(4);
    expect(mostAtOnce(chats)).toBe(2);
  });
});
