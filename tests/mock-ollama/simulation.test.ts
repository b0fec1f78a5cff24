import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CostProfile,
  type MockOllama,
  type MockOllamaOptions,
  startMockOllama,
} from '../../src/mock-ollama/index.js';
import { debateMessages, json, type Message, post } from './helpers.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options: MockOllamaOptions): Promise<{ server: MockOllama; client: Ollama }> {
  const server = await startMockOllama(options);
  servers.push(server);
  return { server, client: new Ollama({ host: server.url }) };
}

const ask = (model: string, messages: Message[], options: Record<string, unknown> = {}) => ({
  model,
  messages,
  options: { seed: 1, ...options },
});

/** A long shared system prompt, so cache effects are large. */
function longConversation(): Message[] {
  const messages = debateMessages();
  const first = messages[0] as Message;
  first.content += `\n${'Evidence: cities that restricted traffic saw cleaner air and safer streets. '.repeat(40)}`;
  return messages;
}

describe('prompt cache', () => {
  it('serves a shared conversation prefix from the slot cache', async () => {
    const { server, client } = await start({ profile: 'gpu' });
    const conversation = longConversation();
    const first = await client.chat(ask('llama3', conversation));
    expect(first.load_duration).toBe(5e9);
    const afterFirst = server.stats();
    expect(afterFirst.cachedPromptTokens).toBe(0);
    expect(afterFirst.prefilledPromptTokens).toBe(first.prompt_eval_count);

    const next = [
      ...conversation,
      { role: 'assistant', content: first.message.content },
      { role: 'user', content: 'Rebut.' },
    ];
    const second = await client.chat(ask('llama3', next));
    const stats = server.stats();
    const cached = stats.cachedPromptTokens;
    // Everything up to and including the previous answer was cached; only the new turn is evaluated.
    expect(cached).toBeGreaterThan(0.9 * second.prompt_eval_count);
    expect(second.prompt_eval_count).toBe(stats.promptTokens - first.prompt_eval_count);
    expect(second.prompt_eval_duration).toBe(Math.round(((second.prompt_eval_count - cached) / 4000) * 1e9));
    expect(second.prompt_eval_duration).toBeLessThan(first.prompt_eval_duration / 5);
    expect(second.load_duration).toBe(0);
    expect(stats.perModel['llama3:latest']?.cachedPromptTokens).toBe(cached);
  });

  it('always evaluates at least one token, even for an identical prompt', async () => {
    const { server, client } = await start({ profile: 'gpu' });
    const conversation = longConversation();
    await client.chat(ask('llama3', conversation));
    server.resetStats();
    const again = await client.chat(ask('llama3', conversation));
    expect(server.stats()).toMatchObject({
      cachedPromptTokens: again.prompt_eval_count - 1,
      prefilledPromptTokens: 1,
      modelLoads: 0,
      requests: 1,
    });
  });
});

describe('multi-user prompt cache (OLLAMA_MULTIUSER_CACHE)', () => {
  /** A, then B (same system text, another speaker), then A continued: how much of A's continuation was cached. */
  async function continuationCached(multiUserCache: boolean): Promise<{ cached: number; prompt: number }> {
    const profile: CostProfile = {
      name: 'two-slots',
      prefillTokensPerSecond: 1e6,
      decodeTokensPerSecond: 1e6,
      loadSeconds: 0,
      maxLoadedModels: 1,
      parallel: 2,
      multiUserCache,
    };
    const { server, client } = await start({ profile });
    const a = longConversation();
    const first = await client.chat(ask('llama3', a));
    const b = longConversation();
    (b[1] as Message).content =
      'Your name: Bea\nYou argue for: Keep cars but price congestion\nGive your opening speech.';
    await client.chat(ask('llama3', b));
    server.resetStats();
    const next = [
      ...a,
      { role: 'assistant', content: first.message.content },
      { role: 'user', content: 'Rebut.' },
    ];
    const again = await client.chat(ask('llama3', next));
    return { cached: server.stats().cachedPromptTokens, prompt: again.prompt_eval_count };
  }

  it("keeps a conversation's slot when another departs from it, where the default overwrites it", async () => {
    const multiUser = await continuationCached(true);
    const single = await continuationCached(false);
    // With the multi-user cache, B took the other slot (its shared system text copied there), so A
    // found its whole conversation still cached.
    expect(multiUser.cached).toBeGreaterThan(0.9 * multiUser.prompt);
    // By default B took the slot sharing most with it, A's, and A's continuation found only the
    // system text both share.
    expect(single.cached).toBeLessThan(0.9 * single.prompt);
    expect(single.cached).toBeGreaterThan(0);
    expect(multiUser.cached - single.cached).toBeGreaterThan(0.2 * single.prompt);
  });
});

describe('model loading', () => {
  it('cpu profile keeps one model: alternating models reloads each time and loses the cache', async () => {
    const { server, client } = await start({ profile: 'cpu' });
    const messages = longConversation();
    const loads: number[] = [];
    for (const model of ['llama3', 'mistral', 'llama3', 'mistral']) {
      loads.push((await client.chat(ask(model, messages, { num_predict: 5 }))).load_duration);
    }
    expect(loads).toEqual([10e9, 10e9, 10e9, 10e9]);
    const repeat = await client.chat(ask('mistral', messages, { num_predict: 5 }));
    expect(repeat.load_duration).toBe(0);
    const stats = server.stats();
    expect(stats.modelLoads).toBe(4);
    expect(stats.perModel['llama3:latest']?.modelLoads).toBe(2);
    expect(stats.perModel['mistral:latest']?.modelLoads).toBe(2);
    // The reloaded models started with empty caches; only the final repeat hit the cache.
    expect(stats.cachedPromptTokens).toBe(repeat.prompt_eval_count - 1);
    const { models } = await client.ps();
    expect(models.map((m) => m.name)).toEqual(['mistral:latest']);
    expect(models[0]?.size_vram).toBe(0);
    // cpu: 7 tokens/s decode, 35 tokens/s prefill, 10 s load.
    expect(stats.simulatedSeconds).toBeGreaterThan(40);
  });

  it('evicts the least recently used model when memory is full', async () => {
    const { server, client } = await start({ profile: 'gpu' });
    const hi: Message[] = [{ role: 'user', content: 'hi' }];
    for (const model of ['llama3', 'mistral', 'llama3', 'codellama', 'llama3', 'mistral']) {
      await client.chat(ask(model, hi, { num_predict: 2 }));
    }
    const loads = Object.fromEntries(
      Object.entries(server.stats().perModel).map(([k, v]) => [k, v.modelLoads]),
    );
    expect(loads).toEqual({ 'llama3:latest': 1, 'mistral:latest': 2, 'codellama:latest': 1 });
    const { models } = await client.ps();
    expect(models.map((m) => m.name).sort()).toEqual(['llama3:latest', 'mistral:latest']);
  });

  it('unloads right after a request with keep_alive 0', async () => {
    const { client } = await start({ profile: 'gpu' });
    await client.chat({ model: 'llama3', messages: [{ role: 'user', content: 'hi' }], keep_alive: 0 });
    expect((await client.ps()).models).toEqual([]);
    await client.chat({ model: 'llama3', messages: [{ role: 'user', content: 'hi' }], keep_alive: '10m' });
    const [loaded] = (await client.ps()).models;
    expect(Date.parse(String(loaded?.expires_at)) - Date.now()).toBeGreaterThan(9 * 60_000);
  });

  it('applies num_ctx: long prompts are truncated, or refused with truncate false', async () => {
    const { server, client } = await start({});
    const messages = longConversation();
    const cut = await client.chat(ask('llama3', messages, { num_ctx: 64 }));
    expect(cut.prompt_eval_count).toBe(64);
    const refused = await post(`${server.url}/api/chat`, {
      ...ask('llama3', messages, { num_ctx: 64 }),
      truncate: false,
    });
    expect(refused.status).toBe(400);
    expect((await json(refused)).error).toMatch(/context length/);
  });
});

describe('slots and real pacing', () => {
  // 20 output tokens at 200 tokens/s is 0.1 simulated seconds; speed 1 makes that 100 ms of real time.
  const slow = (parallel: number): CostProfile => ({
    name: 'slow',
    prefillTokensPerSecond: 1e6,
    decodeTokensPerSecond: 200,
    loadSeconds: 0,
    maxLoadedModels: 1,
    parallel,
  });
  const body = (content: string) => ask('llama3', [{ role: 'user', content }], { num_predict: 20 });

  it('queues concurrent requests when the model has one slot', async () => {
    const { server, client } = await start({ profile: slow(1), speed: 1 });
    await client.chat(body('warm up'));
    const t0 = Date.now();
    await client.chat(body('alone'));
    const single = Date.now() - t0;
    const t1 = Date.now();
    const [a, b] = await Promise.all([client.chat(body('first')), client.chat(body('second'))]);
    const pair = Date.now() - t1;
    expect(a.eval_count + b.eval_count).toBe(40);
    const [ra, rb] = server.requests.slice(-2).sort((x, y) => (x.startedAt ?? 0) - (y.startedAt ?? 0));
    // The second request only got the slot once the first had finished.
    expect(rb?.startedAt).toBeGreaterThanOrEqual(ra?.finishedAt ?? Number.POSITIVE_INFINITY);
    // Lower bounds only: pacing never finishes early, so these cannot flake on a slow machine.
    expect(single).toBeGreaterThanOrEqual(95);
    expect(pair).toBeGreaterThanOrEqual(190);
  });

  it('runs concurrent requests side by side when there are enough slots', async () => {
    // 20 tokens at 20 tokens/s: each request holds its slot for a second of real time, so the two
    // overlap even when a loaded machine sends the second well after the first.
    const { server, client } = await start({
      profile: { ...slow(2), decodeTokensPerSecond: 20 },
      speed: 1,
    });
    await Promise.all([client.chat(body('first')), client.chat(body('second'))]);
    const [ra, rb] = server.requests.slice(-2);
    expect(new Set([ra?.slot, rb?.slot])).toEqual(new Set([0, 1]));
    // Each started before the other finished: they overlapped.
    expect(ra?.startedAt ?? Number.POSITIVE_INFINITY).toBeLessThan(rb?.finishedAt ?? 0);
    expect(rb?.startedAt ?? Number.POSITIVE_INFINITY).toBeLessThan(ra?.finishedAt ?? 0);
  });

  it('spreads streamed chunks over the simulated decode time', async () => {
    // 20 tokens at 20 tokens/s: a second of decode, so only a stall of this process longer than
    // that could bunch the pieces into one read.
    const { server } = await start({ profile: { ...slow(1), decodeTokensPerSecond: 20 }, speed: 1 });
    const response = await post(`${server.url}/api/chat`, { ...body('stream me'), stream: true });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const arrivals: number[] = [];
    const began = Date.now();
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
      arrivals.push(Date.now() - began);
    }
    expect(arrivals.length).toBeGreaterThan(2);
    // The pieces trickle in over the decode rather than arriving in one burst.
    expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(50);
  });

  it('makes a request wait for its model to load, scaled by speed', async () => {
    // 100 simulated seconds of load at 0.02: two seconds of real time, far above what the second
    // request (loaded model, one token) takes even on a loaded machine.
    const profile: CostProfile = { ...slow(1), loadSeconds: 100 };
    const { client } = await start({ profile, speed: 0.02 });
    const t0 = Date.now();
    const first = await client.chat(ask('llama3', [{ role: 'user', content: 'x' }], { num_predict: 1 }));
    const loadWait = Date.now() - t0;
    expect(first.load_duration).toBe(100e9);
    expect(loadWait).toBeGreaterThanOrEqual(1990);
    const t1 = Date.now();
    await client.chat(ask('llama3', [{ role: 'user', content: 'y' }], { num_predict: 1 }));
    expect(Date.now() - t1).toBeLessThan(loadWait);
  });
});

describe('client disconnects', () => {
  const profile: CostProfile = {
    name: 'one-slot',
    prefillTokensPerSecond: 1e6,
    decodeTokensPerSecond: 100,
    loadSeconds: 0,
    maxLoadedModels: 1,
    parallel: 1,
  };

  it('frees the slot when a client abandons a stream, so the next request is not stuck', async () => {
    // 2,000 output tokens at 100 tokens/s would hold the only slot for 20 s of real time.
    const { server, client } = await start({ profile, speed: 1 });
    const controller = new AbortController();
    const response = await post(
      `${server.url}/api/chat`,
      ask('llama3', [{ role: 'user', content: 'long' }], { num_predict: 2000 }),
      { signal: controller.signal },
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    const t0 = Date.now();
    const next = await client.chat(ask('llama3', [{ role: 'user', content: 'short' }], { num_predict: 5 }));
    expect(next.done).toBe(true);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(server.requests.at(-2)?.startedAt).toBeDefined();
  });
});
