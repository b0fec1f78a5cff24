import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContextOverflowError } from '../../src/llm/errors.js';
import { OpenAiProvider } from '../../src/llm/openai-provider.js';
import type { ChatRequest } from '../../src/llm/provider.js';
import { safeChat } from '../../src/llm/safe-call.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { closedPort } from '../helpers/cli.js';
import { failure } from '../helpers/provider-errors.js';

const request = (content: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'mistral',
  messages: [
    { role: 'system', content: 'Motion: Should cities ban cars?' },
    { role: 'user', content },
  ],
  maxTokens: 200,
  contextWindow: 4096,
  temperature: 0.7,
  seed: 5,
  ...extra,
});

const policy = { attempts: 3, backoffMs: 0, maxBackoffMs: 0 };
const noSleep = async () => undefined;

describe('OpenAiProvider against the simulator’s OpenAI-compatible API', () => {
  let server: MockOllama;
  let provider: OpenAiProvider;
  const chats = () => server.requests.filter((recorded) => recorded.path === '/v1/chat/completions');
  const chatsSaying = (text: string) =>
    chats().filter((recorded) => JSON.stringify(recorded.body).includes(text));

  beforeAll(async () => {
    server = await startMockOllama({
      models: ['mistral', 'llama3'],
      contextLength: 4096,
      script: [
        { match: { text: 'FAULT-500' }, fault: 'error-500' },
        { match: { text: 'ONCE-503' }, fault: 'busy-503', times: 1 },
        { match: { text: 'ONCE-429' }, fault: 'busy-503', status: 429, times: 1 },
        {
          match: { text: 'FAULT-400-CONTEXT' },
          fault: 'bad-request-400',
          error: "This model's maximum context length is 4096 tokens. However, you requested 9000 tokens.",
        },
        { match: { text: 'FAULT-IN-STREAM' }, fault: 'error-in-stream' },
        { match: { text: 'FAULT-CUT' }, fault: 'cut-stream' },
        { match: { text: 'FAULT-MALFORMED' }, fault: 'malformed-json' },
        { match: { text: 'FAULT-HANG' }, fault: 'hang' },
        {
          match: { text: 'ECHO-KEY' },
          fault: 'error-500',
          error: 'upstream refused Bearer sk-test-secret-123',
        },
        { match: { text: 'ONCE-503' }, reply: 'Recovered after a busy server.' },
        { match: { text: 'ONCE-429' }, reply: 'Recovered after a rate limit.' },
        { match: { text: 'SAY-HELLO' }, reply: 'Hello from the script.' },
      ],
    });
    provider = new OpenAiProvider({ baseUrl: `${server.url}/v1/`, requestTimeoutMs: 5_000 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('streams a chat and reports text, usage, the stop reason and the request it sent', async () => {
    const pieces: string[] = [];
    const result = await provider.chat(request('SAY-HELLO'), { onDelta: (piece) => pieces.push(piece) });
    expect(result.text).toBe('Hello from the script.');
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(result.text);
    expect(result.stopReason).toBe('stop');
    expect(result.promptTokens).toBeGreaterThan(5);
    expect(result.outputTokens).toBeGreaterThan(0);
    expect(result.model).toBe('mistral');
    expect(chatsSaying('SAY-HELLO').at(-1)?.body).toMatchObject({
      model: 'mistral',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 200,
      temperature: 0.7,
      seed: 5,
      cache_prompt: true,
    });
    // The window is the server's, fixed at start-up: nothing Ollama-specific is sent.
    expect(chatsSaying('SAY-HELLO').at(-1)?.body).not.toHaveProperty('options');
  });

  it('is answered as llama-server answers: a null first delta, usage and timings last, no comments', async () => {
    const raw = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'mistral',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'SAY-HELLO' }],
      }),
    }).then((response) => response.text());
    const events = raw.split('\n\n').filter((event) => event !== '');
    expect(events.every((event) => event.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.slice(6)));
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: null });
    expect(chunks.at(-2).choices[0]).toMatchObject({ finish_reason: 'stop', delta: {} });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });
    expect(chunks.at(-1).timings).toMatchObject({
      cache_n: expect.any(Number),
      prompt_n: expect.any(Number),
    });
    const result = await provider.chat(request('SAY-HELLO'));
    expect(result.text).toBe('Hello from the script.');
  });

  it('reports the prompt tokens the server took from its cache', async () => {
    const first = await provider.chat(request('A first turn about congestion pricing.'));
    const second = await provider.chat(
      request('A first turn about congestion pricing.', {
        messages: [
          ...request('A first turn about congestion pricing.').messages,
          { role: 'assistant', content: first.text },
          { role: 'user', content: 'And the second turn?' },
        ],
      }),
    );
    expect(second.cachedPromptTokens).toBeGreaterThan(0);
    expect(second.cachedPromptTokens).toBeLessThanOrEqual(second.promptTokens);
  });

  it('asks for a JSON answer through response_format and gets one that follows the schema', async () => {
    const schema = {
      type: 'object',
      properties: { reasoning: { type: 'string' }, vote: { type: 'string', enum: ['continue', 'rotate'] } },
      required: ['reasoning', 'vote'],
    };
    const result = await provider.chat(request('Judge the round.', { jsonSchema: schema, maxTokens: 400 }));
    const answer = JSON.parse(result.text) as { reasoning: string; vote: string };
    expect(['continue', 'rotate']).toContain(answer.vote);
    expect(chats().at(-1)?.body).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } },
    });
  });

  it('says "length" when max_tokens cut the answer', async () => {
    const result = await provider.chat(request('Make your opening statement.', { maxTokens: 5 }));
    expect(result.stopReason).toBe('length');
    expect(result.outputTokens).toBe(5);
  });

  it('does not retry a prompt longer than the server’s window: a typed overflow with its numbers', async () => {
    const long = 'congestion pricing and retail footfall '.repeat(1200);
    const error = await failure(
      safeChat(provider, request(long), { policy, sleep: noSleep }).catch((caught) => {
        throw caught.last ?? caught;
      }),
    );
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(error).toMatchObject({
      kind: 'context-overflow',
      isRetryable: false,
      exitCode: 3,
      contextWindow: 4096,
    });
    expect((error as ContextOverflowError).promptTokens).toBeGreaterThan(4096);
    expect(error.message).toMatch(/does not fit the context window of 4096 tokens/);
    expect(chatsSaying('retail footfall congestion')).toHaveLength(1);

    // vLLM says it in words: the window is read from them.
    const scripted = await failure(provider.chat(request('FAULT-400-CONTEXT')));
    expect(scripted).toMatchObject({ kind: 'context-overflow', status: 400, contextWindow: 4096 });
    expect(scripted.message).toMatch(/maximum context length is 4096/);
  });

  it('reports a model the server does not serve as model-not-found', async () => {
    const error = await failure(provider.chat(request('Hello', { model: 'gpt-none' })));
    expect(error).toMatchObject({ kind: 'model-not-found', status: 404, isRetryable: false });
  });

  it('retries 503 and 429 and then succeeds', async () => {
    for (const [text, reply] of [
      ['ONCE-503', 'Recovered after a busy server.'],
      ['ONCE-429', 'Recovered after a rate limit.'],
    ] as const) {
      const retries: string[] = [];
      const outcome = await safeChat(provider, request(text), {
        policy,
        sleep: noSleep,
        onRetry: ({ error }) => retries.push(`${error.kind} ${error.status}`),
      });
      expect(outcome.result.text).toBe(reply);
      expect(outcome.attempts).toBe(2);
      expect(retries).toEqual([`busy ${text === 'ONCE-503' ? 503 : 429}`]);
    }
  });

  it('classifies server errors, errors inside a stream, broken events and cut streams', async () => {
    expect(await failure(provider.chat(request('FAULT-500')))).toMatchObject({
      kind: 'server-error',
      status: 500,
      isRetryable: true,
    });
    expect((await failure(provider.chat(request('FAULT-IN-STREAM')))).kind).toBe('server-error');
    expect((await failure(provider.chat(request('FAULT-MALFORMED')))).kind).toBe('server-error');
    const cut = await failure(provider.chat(request('FAULT-CUT')));
    expect(cut).toMatchObject({ kind: 'stream-incomplete', isRetryable: true });
  });

  it('times out a request that never answers, and cancels on the caller’s signal', async () => {
    const timed = await failure(provider.chat(request('FAULT-HANG'), { timeoutMs: 150 }));
    expect(timed.kind).toBe('timeout');
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 50);
    const cancelled = await failure(provider.chat(request('FAULT-HANG'), { signal: abort.signal }));
    expect(cancelled.kind).toBe('cancelled');
  });

  it('reports an unreachable server', async () => {
    const port = await closedPort();
    const nowhere = new OpenAiProvider({ baseUrl: `http://127.0.0.1:${port}/v1` });
    const error = await failure(nowhere.chat(request('Hello')));
    expect(error.kind).toBe('unreachable');
    expect((await failure(nowhere.listModels())).kind).toBe('unreachable');
  });

  it('lists models, names the server and reads its context window', async () => {
    expect((await provider.listModels()).map((model) => model.name)).toEqual(['mistral', 'llama3']);
    expect(await provider.version()).toBe('llamacpp');
    expect(await provider.contextWindow('mistral')).toBe(4096);
    // A model /v1/models does not describe: llama-server's /props still gives the window.
    expect(await provider.contextWindow('unlisted')).toBe(4096);
    expect(server.requests.some((recorded) => recorded.path === '/props')).toBe(true);
  });

  it('sends the API key as a bearer token and keeps it out of error messages', async () => {
    const keyed = new OpenAiProvider({ baseUrl: `${server.url}/v1`, apiKey: 'sk-test-secret-123' });
    await keyed.chat(request('SAY-HELLO'));
    expect(chats().at(-1)?.authorization).toBe('Bearer sk-test-secret-123');
    const error = await failure(keyed.chat(request('ECHO-KEY')));
    expect(error.message).toContain('[api key]');
    expect(error.message).not.toContain('sk-test-secret-123');
    // A provider without a key sends no Authorization header at all (this test's own call, so the
    // check holds in whatever order the tests run).
    await provider.chat(request('SAY-HELLO'));
    expect(chats().at(-1)?.authorization).toBeUndefined();
  });
});
