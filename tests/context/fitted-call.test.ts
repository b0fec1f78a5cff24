/**
 * A prompt fitted to the window with the model's measured rate, re-fitted when the server still
 * finds it too long, and refused with a plain word about the window when nothing fits: against the
 * simulator, whose small vocabulary reads about 2 characters per token where the first guess is 4.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContextWindowError } from '../../src/context/context-window-error.js';
import { OMITTED_MARKER } from '../../src/context/fit-window.js';
import { fittedChat } from '../../src/context/fitted-call.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import { OpenAiProvider } from '../../src/llm/openai-provider.js';
import type { ChatMessage, ChatRequest } from '../../src/llm/provider.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';

const history = Array.from(
  { length: 60 },
  (_, turn) =>
    `Round ${turn + 1}: congestion pricing cut traffic by a fifth, and shops near the centre kept their customers.`,
).join('\n');

const request = (model: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model,
  messages: [
    { role: 'system', content: 'You debate whether cities should ban cars from their centres.' },
    { role: 'user', content: `The debate so far:\n${history}` },
    { role: 'user', content: 'Your task: give your closing statement.' },
  ],
  maxTokens: 100,
  contextWindow: 1024,
  temperature: 0.7,
  seed: 3,
  ...extra,
});

const policy = { attempts: 2, backoffMs: 0, maxBackoffMs: 0 };

let server: MockOllama;
beforeAll(async () => {
  server = await startMockOllama({
    models: ['stories', 'mistral'],
    contextLength: 1024,
    vocabularies: { stories: 'small' },
  });
});
afterAll(async () => {
  await server.close();
});

const chars = (messages: readonly ChatMessage[]) =>
  messages.reduce((sum, item) => sum + item.content.length, 0);

describe('fittedChat', () => {
  it('re-fits a prompt the server refused with its numbers, and then it fits', async () => {
    const provider = new OpenAiProvider({ baseUrl: `${server.url}/v1` });
    const before = server.requests.length;
    const retries: string[] = [];
    const answer = await fittedChat(provider, request('stories'), {
      what: 'Avery’s closing',
      policy,
      onRetry: ({ error }) => retries.push(error.kind),
    });
    const sent = server.requests.slice(before).filter((item) => item.path === '/v1/chat/completions');
    expect(sent.map((item) => item.status)).toEqual([400, 200]);
    expect(answer.refits).toBe(1);
    expect(answer.attempts).toBe(2);
    expect(retries).toEqual(['context-overflow']);
    // The second prompt was cut with the rate the refusal taught: about 2 characters per token.
    expect(answer.messages[1]?.content).toContain(OMITTED_MARKER);
    const first = (sent[0]?.body as { messages: ChatMessage[] } | undefined)?.messages ?? [];
    expect(chars(answer.messages)).toBeLessThan(chars(first) * 0.7);
    expect(answer.result.promptTokens).toBeLessThanOrEqual(1024 - 100);
    // Only the call that was read counts: its characters and tokens give the model's real rate.
    expect(answer.usage.promptTokens).toBe(answer.result.promptTokens);
    expect(answer.usage.promptChars / answer.usage.promptTokens).toBeLessThan(2.5);
  });

  it('fits at the measured rate at once when the run has measured the model', async () => {
    const provider = new OpenAiProvider({ baseUrl: `${server.url}/v1` });
    const before = server.requests.length;
    const answer = await fittedChat(provider, request('stories'), {
      what: 'Avery’s closing',
      policy,
      rates: new Map([['stories', 1.9]]),
    });
    expect(answer.refits).toBe(0);
    const chats = server.requests.slice(before).filter((item) => item.path === '/v1/chat/completions');
    expect(chats.map((item) => item.status)).toEqual([200]);
  });

  it('adapts on Ollama too, which says only that the prompt did not fit', async () => {
    const provider = new OllamaProvider({ host: server.url });
    const answer = await fittedChat(provider, request('stories'), { what: 'Avery’s closing', policy });
    expect(answer.refits).toBeGreaterThanOrEqual(1);
    expect(answer.result.promptTokens).toBeLessThanOrEqual(1024);
  });

  it('says the context window is the problem when even the shortest prompt cannot fit', async () => {
    const provider = new OpenAiProvider({ baseUrl: `${server.url}/v1` });
    const long = request('stories', {
      messages: [
        // Fits the first guess of 4 characters per token, not the model's real 2.
        { role: 'system', content: `Background: ${history.slice(0, 2100)}` },
        { role: 'user', content: 'The debate so far: (nothing yet)' },
        { role: 'user', content: 'Your task: open the debate.' },
      ],
    });
    const error = await fittedChat(provider, long, { what: 'Avery’s opening', policy }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ContextWindowError);
    expect(error).toMatchObject({ exitCode: 3 });
    expect((error as Error).message).toMatch(
      /^the context window is too small: the prompt for Avery’s opening/,
    );
    // What the server said is part of the message.
    expect((error as Error).message).toMatch(/\(\d+ tokens\) does not fit the context window of 1024 tokens/);
    expect(server.requests.at(-1)?.status).toBe(400);
    expect((error as Error).message).not.toMatch(/server is running/);
  });
});
