/**
 * safeChat against the simulator on both wires: retries after a failure the model's output caused
 * change the seed (and only those), usage is summed over every attempt, a dead model is skipped for
 * its fallback after it failed repeatedly, and a server that resets every connection is unreachable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelBreaker } from '../../src/llm/model-breaker.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import { OpenAiProvider } from '../../src/llm/openai-provider.js';
import type { ChatRequest, ModelProvider } from '../../src/llm/provider.js';
import { ModelCallFailed, retrySeed, safeChat } from '../../src/llm/safe-call.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';

const request = (content: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'mistral',
  messages: [
    { role: 'system', content: 'Motion: Should cities ban cars?' },
    { role: 'user', content },
  ],
  maxTokens: 120,
  contextWindow: 4096,
  temperature: 0.7,
  seed: 5,
  ...extra,
});

const policy = { attempts: 3, backoffMs: 0, maxBackoffMs: 0 };
const noSleep = async () => undefined;

let server: MockOllama;
let ollama: OllamaProvider;
let openAi: OpenAiProvider;

beforeAll(async () => {
  server = await startMockOllama({
    models: ['mistral', 'llama3'],
    contextLength: 4096,
    script: [
      { match: { text: 'STREAM-ERROR-ONCE ollama' }, fault: 'error-in-stream', times: 1 },
      { match: { text: 'STREAM-ERROR-ONCE openai' }, fault: 'error-in-stream', times: 1 },
      { match: { text: 'EMPTY-ONCE' }, fault: 'empty', times: 1 },
      { match: { text: 'BUSY-ONCE' }, fault: 'busy-503', times: 1 },
      { match: { model: 'mistral', text: 'DEAD-PRIMARY' }, fault: 'error-500' },
      { match: { text: 'RESET' }, fault: 'reset-connection' },
      { match: { text: 'HANG' }, fault: 'hang' },
    ],
  });
  ollama = new OllamaProvider({ host: server.url, requestTimeoutMs: 10_000 });
  openAi = new OpenAiProvider({ baseUrl: `${server.url}/v1`, requestTimeoutMs: 10_000 });
});
afterAll(async () => {
  await server.close();
});

/** The seeds the server was sent for chats carrying `text`, in order. */
function seedsOf(text: string): number[] {
  return server.requests
    .filter((item) => JSON.stringify(item.body ?? '').includes(text))
    .map((item) => {
      const body = item.body as { seed?: number; options?: { seed?: number } };
      return (body.seed ?? body.options?.seed) as number;
    });
}

describe('retry seeds', () => {
  it('a retry after an error inside the stream is sent with a seed derived from the attempt', async () => {
    for (const [name, provider] of [
      ['ollama', ollama],
      ['openai', openAi],
    ] as Array<[string, ModelProvider]>) {
      const text = `STREAM-ERROR-ONCE ${name}`;
      const outcome = await safeChat(provider, request(text), { policy, sleep: noSleep });
      expect(outcome.attempts).toBe(2);
      expect(seedsOf(text)).toEqual([5, retrySeed(5, 1)]);
    }
    expect(retrySeed(5, 1)).not.toBe(5);
    // Derived, not drawn: the same on every run, and a 31-bit number like every other seed.
    expect(retrySeed(5, 1)).toBe(retrySeed(5, 1));
    expect(retrySeed(5, 1)).toBeLessThan(2 ** 31);
  });

  it('an empty answer is retried with another seed too, and its tokens are still counted', async () => {
    const outcome = await safeChat(openAi, request('EMPTY-ONCE'), { policy, sleep: noSleep });
    expect(seedsOf('EMPTY-ONCE')).toEqual([5, retrySeed(5, 1)]);
    expect(outcome.result.promptTokens).toBeGreaterThan(0);
    // Both attempts read the prompt: the usage counts both, the answer only the second.
    expect(outcome.usage.promptTokens).toBe(2 * outcome.result.promptTokens);
    expect(outcome.usage.outputTokens).toBe(outcome.result.outputTokens);
    expect(outcome.usage.cachedPromptTokens).toBeGreaterThan(0);
    expect(outcome.usage.promptChars).toBe(
      2 * request('EMPTY-ONCE').messages.reduce((sum, message) => sum + message.content.length, 0),
    );
  });

  it('a retry after a busy server is the identical request', async () => {
    await safeChat(openAi, request('BUSY-ONCE'), { policy, sleep: noSleep });
    expect(seedsOf('BUSY-ONCE')).toEqual([5, 5]);
  });
});

describe('a dead primary model', () => {
  it('is skipped for its fallback after failing twice, and tried once every fifth call', async () => {
    const breaker = new ModelBreaker();
    const answered: string[] = [];
    for (let call = 1; call <= 8; call += 1) {
      const outcome = await safeChat(openAi, request(`DEAD-PRIMARY call ${call}`), {
        policy,
        sleep: noSleep,
        fallbackModels: ['llama3'],
        breaker,
      });
      answered.push(outcome.model);
    }
    expect(answered.every((model) => model === 'llama3')).toBe(true);
    const primaryCalls = (call: number) =>
      server.requests.filter(
        (item) =>
          JSON.stringify(item.body ?? '').includes(`DEAD-PRIMARY call ${call}"`) &&
          (item.body as { model: string }).model === 'mistral',
      ).length;
    // Calls 1 and 2 use every attempt; 3 to 6 go straight to the fallback; 7 tries once; 8 skips.
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(primaryCalls)).toEqual([3, 3, 0, 0, 0, 0, 1, 0]);
  });

  it('is always tried when it has no fallback', async () => {
    const breaker = new ModelBreaker();
    for (let call = 1; call <= 3; call += 1) {
      await expect(
        safeChat(openAi, request(`DEAD-PRIMARY alone ${call}`), { policy, sleep: noSleep, breaker }),
      ).rejects.toBeInstanceOf(ModelCallFailed);
    }
    expect(seedsOf('DEAD-PRIMARY alone')).toHaveLength(9);
  });
});

describe('a request that times out', () => {
  it('is sent once more, then reported, whatever reliability.attempts says', async () => {
    // The server never answers: a short timeout fires whatever the machine's load.
    const impatient = new OllamaProvider({ host: server.url, requestTimeoutMs: 200 });
    for (const attempts of [1, 3, 5]) {
      const text = `HANG with ${attempts} attempts`;
      const error = await safeChat(impatient, request(text), {
        policy: { ...policy, attempts },
        sleep: noSleep,
      }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelCallFailed);
      expect((error as ModelCallFailed).attempts).toBe(2);
      expect(seedsOf(text)).toEqual([5, 5]);
    }
  });
});

describe('a server that accepts and resets every connection', () => {
  it('is unreachable: the call stops the run instead of becoming an emergency answer', async () => {
    const error = await safeChat(openAi, request('RESET'), { policy, sleep: noSleep }).catch(
      (caught: unknown) => caught,
    );
    expect(error).not.toBeInstanceOf(ModelCallFailed);
    expect(error).toMatchObject({ kind: 'unreachable', exitCode: 4 });
    expect((error as Error).message).toMatch(/cannot reach the OpenAI-compatible server/);
    expect(seedsOf('RESET')).toHaveLength(3);
  });
});
