/**
 * A window that fills while the model is answering (llama-server: "Context size has been
 * exceeded." inside the 200 stream) is an overflow to refit, never a fault retried unchanged: the
 * prompt is shortened, or the cap lowered, and the call answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OMITTED_MARKER } from '../../src/context/fit-window.js';
import { fittedChat } from '../../src/context/fitted-call.js';
import { ContextOverflowError } from '../../src/llm/errors.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import { OpenAiProvider } from '../../src/llm/openai-provider.js';
import type { ChatMessage, ChatRequest, ModelProvider } from '../../src/llm/provider.js';
import { type MockOllama, type RecordedRequest, startMockOllama } from '../../src/mock-ollama/index.js';

const FULL = 'Context size has been exceeded.';

const history = Array.from(
  { length: 60 },
  (_, turn) =>
    `Round ${turn + 1}: congestion pricing cut traffic by a fifth, and shops near the centre kept their customers.`,
).join('\n');

const request = (task: string, maxTokens: number): ChatRequest => ({
  model: 'mistral',
  messages: [
    { role: 'system', content: 'You debate whether cities should ban cars from their centres.' },
    { role: 'user', content: `The debate so far:\n${history}` },
    { role: 'user', content: `Your task: ${task}` },
  ],
  maxTokens,
  contextWindow: 4096,
  temperature: 0.7,
  seed: 3,
});

const policy = { attempts: 3, backoffMs: 0, maxBackoffMs: 0 };

let server: MockOllama;
beforeAll(async () => {
  server = await startMockOllama({
    models: ['mistral'],
    contextLength: 4096,
    script: ['OpenAI-compatible', 'Ollama'].flatMap((wire) => [
      { match: { text: `${wire} FULL-EARLY` }, times: 2, fault: 'error-in-stream' as const, error: FULL },
      { match: { text: `${wire} FULL-LATE` }, times: 2, fault: 'error-in-stream' as const, error: FULL },
      { match: { text: `${wire} FULL-ALWAYS` }, fault: 'error-in-stream' as const, error: FULL },
    ]),
  });
});
afterAll(async () => {
  await server.close();
});

const chars = (messages: readonly ChatMessage[]) =>
  messages.reduce((sum, item) => sum + item.content.length, 0);
const bodyOf = (recorded: RecordedRequest | undefined) =>
  recorded?.body as { messages: ChatMessage[]; max_tokens?: number; options?: { num_predict?: number } };
const capOf = (recorded: RecordedRequest | undefined) =>
  bodyOf(recorded).max_tokens ?? bodyOf(recorded).options?.num_predict;

const wires: Array<[string, () => ModelProvider, string]> = [
  [
    'OpenAI-compatible',
    () => new OpenAiProvider({ baseUrl: `${server.url}/v1`, requestTimeoutMs: 30_000 }),
    '/v1/chat/completions',
  ],
  ['Ollama', () => new OllamaProvider({ host: server.url, requestTimeoutMs: 30_000 }), '/api/chat'],
];

describe('a window filled mid-answer', () => {
  for (const [wire, provider, path] of wires) {
    const sent = (text: string) =>
      server.requests.filter((item) => item.path === path && JSON.stringify(item.body).includes(text));

    it(`${wire}: is an overflow, not a server error retried with the same request`, async () => {
      const error = await provider()
        .chat(request(`${wire} FULL-ALWAYS`, 100))
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContextOverflowError);
      expect((error as ContextOverflowError).duringAnswer).toBe(true);
      expect((error as ContextOverflowError).answerTokens).toBeGreaterThan(0);
    });

    it(`${wire}: early in the answer, the prompt is fitted to the room the server had`, async () => {
      const kinds: string[] = [];
      const answer = await fittedChat(provider(), request(`${wire} FULL-EARLY`, 100), {
        what: 'Avery’s closing',
        policy,
        onRetry: ({ error }) => kinds.push(error.kind),
      });
      const requests = sent(`${wire} FULL-EARLY`);
      // Each request differs from the one before; the third one answered.
      expect(requests.map((item) => item.fault ?? 'answered')).toEqual([
        'error-in-stream',
        'error-in-stream',
        'answered',
      ]);
      const sizes = requests.map((item) => chars(bodyOf(item).messages));
      expect(sizes[1]).toBeLessThan(sizes[0] as number);
      expect(sizes[2]).toBeLessThan(sizes[1] as number);
      expect(kinds).toEqual(['context-overflow', 'context-overflow']);
      expect(answer.refits).toBe(2);
      expect(answer.maxTokens).toBe(100);
      expect(answer.messages[1]?.content).toContain(OMITTED_MARKER);
      expect(answer.result.text.length).toBeGreaterThan(0);
    });

    it(`${wire}: late in the answer, the same prompt goes again with a lower cap`, async () => {
      const answer = await fittedChat(provider(), request(`${wire} FULL-LATE`, 8), {
        what: 'Avery’s closing',
        policy,
      });
      const requests = sent(`${wire} FULL-LATE`);
      expect(requests).toHaveLength(3);
      const caps = requests.map(capOf);
      expect(caps[0]).toBe(8);
      expect(caps[1]).toBeLessThan(8);
      expect(caps[1]).toBeGreaterThanOrEqual(2);
      // The first refit keeps the prompt whole and lowers the cap to the answer the server had room for.
      expect(chars(bodyOf(requests[1]).messages)).toBe(chars(bodyOf(requests[0]).messages));
      expect(answer.maxTokens).toBeLessThan(8);
      expect(answer.refits).toBe(2);
    });
  }
});
