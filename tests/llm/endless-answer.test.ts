/**
 * A server that ignores the token cap and streams without end: both readers stop at the answer's
 * cap (in tokens and in characters), close the request, and return the answer as cut.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_CHARS_PER_TOKEN } from '../../src/llm/answer-cap.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import { OpenAiProvider } from '../../src/llm/openai-provider.js';
import type { ChatRequest, ModelProvider } from '../../src/llm/provider.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';

const request = (content: string, maxTokens: number): ChatRequest => ({
  model: 'mistral',
  messages: [
    { role: 'system', content: 'Motion: Should cities ban cars?' },
    { role: 'user', content },
  ],
  maxTokens,
  contextWindow: 4096,
  temperature: 0.7,
  seed: 5,
});

describe('an answer that never ends', () => {
  let server: MockOllama;
  const wires: Array<[string, () => ModelProvider, string]> = [
    ['Ollama', () => new OllamaProvider({ host: server.url, requestTimeoutMs: 60_000 }), '/api/chat'],
    [
      'OpenAI-compatible',
      () => new OpenAiProvider({ baseUrl: `${server.url}/v1`, requestTimeoutMs: 60_000 }),
      '/v1/chat/completions',
    ],
  ];

  beforeAll(async () => {
    server = await startMockOllama({
      models: ['mistral'],
      script: [
        { match: { text: 'ENDLESS-WORDS' }, fault: 'endless', reply: 'the debate goes on' },
        // Whitespace runs of 60 characters, one token each: the character cap comes long before the token cap.
        { match: { text: 'ENDLESS-LONG' }, fault: 'endless', reply: `Wide${' '.repeat(60)}`.repeat(50) },
      ],
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const lastTo = (path: string, text: string) =>
    server.requests.filter((r) => r.path === path && JSON.stringify(r.body).includes(text)).at(-1);

  for (const [wire, provider, path] of wires) {
    it(`${wire}: stops reading at the token cap, closes the request and marks the answer cut`, async () => {
      const pieces: string[] = [];
      const result = await provider().chat(request(`${wire} ENDLESS-WORDS`, 150), {
        onDelta: (piece) => pieces.push(piece),
      });
      expect(result.stopReason).toBe('length');
      expect(result.outputTokens).toBe(150);
      expect(result.text.startsWith('the debate goes on')).toBe(true);
      expect(result.text.length).toBeGreaterThan(150);
      expect(result.text.length).toBeLessThanOrEqual(150 * MAX_CHARS_PER_TOKEN);
      expect(pieces.join('')).toBe(result.text);
      const record = lastTo(path, `${wire} ENDLESS-WORDS`);
      expect(record?.fault).toBe('endless');
      // The server sees the connection closed: it stops writing.
      await vi.waitFor(() => expect(record?.finishedAt).toBeDefined(), { timeout: 600_000, interval: 20 });
      const sent = record?.bytesSent ?? 0;
      expect(sent).toBeGreaterThan(0);
      // What the server managed to write before the close reached it: socket buffers, not gigabytes.
      expect(sent).toBeLessThan(8 * 1024 * 1024);
    });

    it(`${wire}: stops reading at the character cap when the pieces are long`, async () => {
      const result = await provider().chat(request(`${wire} ENDLESS-LONG`, 100), {});
      expect(result.stopReason).toBe('length');
      expect(result.text.length).toBeLessThanOrEqual(100 * MAX_CHARS_PER_TOKEN);
      expect(result.text.length).toBeGreaterThan(100 * MAX_CHARS_PER_TOKEN - 100);
      expect(result.outputTokens).toBeLessThan(100);
    });
  }
});
