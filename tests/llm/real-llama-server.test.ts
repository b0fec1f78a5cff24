/**
 * The OpenAI-compatible adapter against the bytes a real llama-server sent: streams, a cut JSON
 * answer, usage with cached tokens and timings, the overflow answer, aliases, windows, a name the
 * server does not list, and a whole (not streamed) answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ContextOverflowError } from '../../src/llm/errors.js';
import { OpenAiProvider } from '../../src/llm/openai-provider.js';
import type { ChatRequest } from '../../src/llm/provider.js';
import { safeChat } from '../../src/llm/safe-call.js';
import { type CaptureServer, capture, startCaptureServer } from '../helpers/capture-server.js';
import { failure } from '../helpers/provider-errors.js';

const request = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'stories260k',
  messages: [
    { role: 'system', content: 'You tell stories.' },
    { role: 'user', content: 'Once upon a time' },
  ],
  maxTokens: 24,
  contextWindow: 2048,
  temperature: 0.8,
  seed: 7,
  ...extra,
});

/** The text the deltas of a capture carry, read here independently of the adapter. */
function capturedText(file: string): string {
  return capture(file)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as { choices: Array<{ delta?: { content?: string | null } }> })
    .flatMap((chunk) => chunk.choices.map((choice) => choice.delta?.content ?? ''))
    .join('');
}

const servers: CaptureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(routes: Record<string, string | string[]>, options: { prefix?: string } = {}) {
  const server = await startCaptureServer(routes, options);
  servers.push(server);
  return { server, provider: new OpenAiProvider({ baseUrl: `${server.url}/v1`, requestTimeoutMs: 10_000 }) };
}

describe('the OpenAI-compatible adapter against a real llama-server’s bytes', () => {
  it('reads a stream cut at max_tokens: null first delta, text, length, usage with cached tokens and timings', async () => {
    const { provider } = await serve({ '/v1/chat/completions': 'stream-length-cut.sse' });
    const pieces: string[] = [];
    const result = await provider.chat(request(), { onDelta: (piece) => pieces.push(piece) });
    expect(result.text).toBe(capturedText('stream-length-cut.sse'));
    expect(result.text.length).toBeGreaterThan(20);
    expect(pieces.join('')).toBe(result.text);
    expect(result).toMatchObject({
      stopReason: 'length',
      promptTokens: 105,
      cachedPromptTokens: 0,
      outputTokens: 24,
    });
    // The server's own durations, from its timings.
    expect(result.timings.promptEvalMs).toBeCloseTo(16.091, 3);
    expect(result.timings.evalMs).toBeCloseTo(8.737, 3);
  });

  it('ignores comment lines some proxies add to a stream', async () => {
    const { provider } = await serve(
      { '/v1/chat/completions': 'stream-length-cut.sse' },
      { prefix: ': ping\n\n: keep-alive\n\n' },
    );
    expect((await provider.chat(request())).text).toBe(capturedText('stream-length-cut.sse'));
  });

  it('a JSON answer with an unbounded string is cut at the cap; a bounded one closes early', async () => {
    const { provider } = await serve({
      '/v1/chat/completions': [
        'stream-json-schema-unbounded-string.sse',
        'stream-json-schema-bounded-string.sse',
      ],
    });
    const schema = { type: 'object', properties: { comments: { type: 'string' } } };
    const unbounded = await provider.chat(request({ jsonSchema: schema, maxTokens: 60 }));
    expect(unbounded.stopReason).toBe('length');
    expect(() => JSON.parse(unbounded.text)).toThrow();
    expect(unbounded).toMatchObject({ promptTokens: 63, cachedPromptTokens: 11, outputTokens: 60 });
    const bounded = await provider.chat(request({ jsonSchema: schema, maxTokens: 60 }));
    // The bounded string closed, and the fields after it began.
    expect(bounded.text).toMatch(/^\{"comments" :"[^"]{1,40}","score":5,/);
    expect(bounded.cachedPromptTokens).toBe(62);
  });

  it('turns the overflow answer into a typed error with the server’s numbers', async () => {
    const { server, provider } = await serve({ '/v1/chat/completions': 'overflow-400.http' });
    const error = await failure(provider.chat(request()));
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(error).toMatchObject({
      kind: 'context-overflow',
      status: 400,
      promptTokens: 15042,
      contextWindow: 2048,
      isRetryable: false,
    });
    expect(error.message).toMatch(/prompt \(15042 tokens\) does not fit the context window of 2048 tokens/);
    // safeChat does not send the same oversized prompt again.
    const policy = { attempts: 3, backoffMs: 0, maxBackoffMs: 0 };
    await expect(safeChat(provider, request(), { policy })).rejects.toMatchObject({
      last: { kind: 'context-overflow' },
      attempts: 1,
    });
    expect(server.requests.filter((item) => item.path === '/v1/chat/completions')).toHaveLength(2);
  });

  it('lists a model’s aliases as names it serves, and reads its window from meta.n_ctx', async () => {
    const { provider } = await serve({ '/v1/models': 'v1-models.json' });
    expect((await provider.listModels()).map((model) => model.name)).toEqual([
      'stories260k',
      'stories260k-b',
    ]);
    expect(await provider.version()).toBe('llamacpp');
    expect(await provider.contextWindow('stories260k-b')).toBe(2048);
    // One model, by llama-server: any name is served.
    expect(await provider.servesAnyModel()).toBe(true);
  });

  it('reads the window from /props when /v1/models does not give it', async () => {
    const { server, provider } = await serve({ '/v1/models': 'v1-models.json', '/props': 'props.json' });
    expect(await provider.contextWindow('unlisted')).toBe(2048);
    expect(server.requests.map((item) => item.path)).toContain('/props');
  });

  it('reads a whole (not streamed) answer, such as the one for a name the server does not list', async () => {
    const { provider } = await serve({
      '/v1/chat/completions': ['unknown-model-name.http', 'cache-reuse-call-2.json'],
    });
    const other = await provider.chat(request({ model: 'no-such-model', maxTokens: 8 }));
    expect(other).toMatchObject({
      text: 'ke”-xarararor',
      stopReason: 'length',
      promptTokens: 42,
      cachedPromptTokens: 15,
      outputTokens: 8,
    });
    const cached = await provider.chat(request({ maxTokens: 8 }));
    expect(cached).toMatchObject({ promptTokens: 790, cachedPromptTokens: 764, outputTokens: 8 });
  });

  it('counts tokens with the server’s own tokenizer (/tokenize at its root)', async () => {
    const { server, provider } = await serve({ 'POST /tokenize': 'tokenize.json' });
    const text = 'Once upon a time there was a little girl who liked to count.';
    expect(await provider.countTokens('stories260k', text)).toBe(30);
    const sent = server.requests.find((item) => item.path === '/tokenize');
    expect(sent?.method).toBe('POST');
    expect(sent?.body).toMatchObject({ content: text });
  });

  it('reads the slots and the window of one slot from /props', async () => {
    const { provider } = await serve({ '/v1/models': 'v1-models.json', '/props': 'props.json' });
    expect(await provider.slots()).toBe(2);
    // -c 4096 with two slots: a request gets the 2048 of its slot.
    expect(await provider.contextWindow('stories260k')).toBe(2048);
  });

  it('reads the slots before its first chat, and a server without /props is not limited', async () => {
    const { server, provider } = await serve({
      '/props': 'props.json',
      '/v1/chat/completions': 'stream-length-cut.sse',
    });
    await provider.chat(request());
    await provider.chat(request());
    expect(server.requests.map((item) => item.path)).toEqual([
      '/props',
      '/v1/chat/completions',
      '/v1/chat/completions',
    ]);
    const bare = await serve({ '/v1/chat/completions': 'stream-length-cut.sse' });
    expect((await bare.provider.chat(request())).text).toBe(capturedText('stream-length-cut.sse'));
    expect(await bare.provider.slots()).toBeUndefined();
  });
});
