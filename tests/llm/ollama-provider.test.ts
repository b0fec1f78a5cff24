import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import type { ChatRequest } from '../../src/llm/provider.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { failure } from '../helpers/provider-errors.js';

const request = (content: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'llama3',
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

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

describe('OllamaProvider against the mock Ollama', () => {
  let server: MockOllama;
  let provider: OllamaProvider;

  beforeAll(async () => {
    server = await startMockOllama({
      models: ['llama3', 'mistral'],
      script: [
        { match: { text: 'FAULT-400' }, fault: 'bad-request-400' },
        { match: { text: 'FAULT-500' }, fault: 'error-500' },
        { match: { text: 'FAULT-503' }, fault: 'busy-503' },
        { match: { text: 'FAULT-IN-STREAM' }, fault: 'error-in-stream' },
        { match: { text: 'FAULT-CUT' }, fault: 'cut-stream' },
        { match: { text: 'FAULT-MALFORMED' }, fault: 'malformed-json' },
        { match: { text: 'FAULT-HANG' }, fault: 'hang' },
        { match: { text: 'SAY-HELLO' }, reply: 'Hello from the script.' },
      ],
    });
    provider = new OllamaProvider({ host: server.url, requestTimeoutMs: 5_000 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('streams a chat and reports text, tokens, durations and the stop reason', async () => {
    const pieces: string[] = [];
    const result = await provider.chat(request('SAY-HELLO'), { onDelta: (piece) => pieces.push(piece) });
    expect(result.text).toBe('Hello from the script.');
    expect(pieces.join('')).toBe(result.text);
    expect(result.stopReason).toBe('stop');
    expect(result.promptTokens).toBeGreaterThan(5);
    expect(result.outputTokens).toBeGreaterThan(0);
    expect(result.timings.totalMs).toBeGreaterThanOrEqual(0);
  });

  it('always sends num_predict, num_ctx, seed, temperature, think: false and truncate: false', async () => {
    const before = server.requests.length;
    await provider.chat(request('Please argue.'));
    const sent = server.requests.slice(before).find((item) => item.path === '/api/chat');
    expect(sent?.body).toMatchObject({
      model: 'llama3',
      stream: true,
      think: false,
      truncate: false,
      options: { num_predict: 200, num_ctx: 4096, seed: 5, temperature: 0.7 },
    });
  });

  it('reports a statement cut by num_predict as stopped by length', async () => {
    const result = await provider.chat(request('Please argue at length.', { maxTokens: 7 }));
    expect(result.stopReason).toBe('length');
    expect(result.outputTokens).toBe(7);
  });

  it('sends a JSON schema as format and gets JSON back', async () => {
    const result = await provider.chat(
      request('Evaluate.', {
        jsonSchema: {
          type: 'object',
          properties: { score: { type: 'integer', minimum: 1, maximum: 5 } },
          required: ['score'],
        },
      }),
    );
    const parsed = JSON.parse(result.text) as { score: number };
    expect(parsed.score).toBeGreaterThanOrEqual(1);
    expect(parsed.score).toBeLessThanOrEqual(5);
  });

  it('lists models and reads the version', async () => {
    expect((await provider.listModels()).map((model) => model.name)).toEqual([
      'llama3:latest',
      'mistral:latest',
    ]);
    expect(typeof (await provider.version())).toBe('string');
  });

  it('classifies an unknown model as model-not-found with the pull command', async () => {
    const error = await failure(provider.chat(request('hi', { model: 'phi3' })));
    expect(error.kind).toBe('model-not-found');
    expect(error.status).toBe(404);
    expect(error.isRetryable).toBe(false);
    expect(error.message).toContain('ollama pull phi3');
    expect(error.exitCode).toBe(5);
  });

  it.each([
    ['FAULT-400', 'bad-request', false, 400],
    ['FAULT-500', 'server-error', true, 500],
    ['FAULT-503', 'busy', true, 503],
  ])('classifies %s as %s', async (text, kind, retryable, status) => {
    const error = await failure(provider.chat(request(text)));
    expect(error.kind).toBe(kind);
    expect(error.isRetryable).toBe(retryable);
    expect(error.status).toBe(status);
  });

  it('classifies an {"error"} line inside a 200 stream as a server error', async () => {
    const error = await failure(provider.chat(request('FAULT-IN-STREAM')));
    expect(error.kind).toBe('server-error');
    expect(error.isRetryable).toBe(true);
    expect(error.message).toMatch(/error was encountered while running the model/);
  });

  it('classifies a stream that ends without done as incomplete', async () => {
    const error = await failure(provider.chat(request('FAULT-CUT')));
    expect(error.kind).toBe('stream-incomplete');
    expect(error.isRetryable).toBe(true);
  });

  it('fails loudly on a malformed stream line instead of skipping it', async () => {
    const error = await failure(provider.chat(request('FAULT-MALFORMED')));
    expect(error.kind).toBe('server-error');
    expect(error.message).toMatch(/malformed line/);
  });

  it('times out a request that hangs, as a retryable error', async () => {
    const impatient = new OllamaProvider({ host: server.url, requestTimeoutMs: 300 });
    const error = await failure(impatient.chat(request('FAULT-HANG')));
    expect(error.kind).toBe('timeout');
    expect(error.isRetryable).toBe(true);
  });

  it('cancels a request when the caller aborts, as a non-retryable error', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failure(provider.chat(request('FAULT-HANG'), { signal: controller.signal }));
    expect(error.kind).toBe('cancelled');
    expect(error.isRetryable).toBe(false);
  });

  it('classifies a closed port as unreachable, with a hint to start Ollama', async () => {
    const nowhere = new OllamaProvider({ host: `http://127.0.0.1:${await freePort()}` });
    const error = await failure(nowhere.version());
    expect(error.kind).toBe('unreachable');
    expect(error.isRetryable).toBe(true);
    expect(error.message).toMatch(/ECONNREFUSED.*ollama serve/);
    expect(error.exitCode).toBe(4);
  });
});
