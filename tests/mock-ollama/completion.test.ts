import { Ollama } from 'ollama';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens, type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { chatText, debateMessages, ndjson, post } from './helpers.js';

const DURATIONS = ['total_duration', 'load_duration', 'prompt_eval_duration', 'eval_duration'] as const;

describe('mock Ollama completions', () => {
  let server: MockOllama;
  let client: Ollama;

  beforeAll(async () => {
    server = await startMockOllama({ profile: 'gpu' });
    client = new Ollama({ host: server.url });
  });
  afterAll(() => server.close());

  const chat = (extra: Record<string, unknown> = {}) =>
    post(`${server.url}/api/chat`, { model: 'llama3', messages: debateMessages(), ...extra });

  it('streams chat as NDJSON in several chunks, ending with the counters', async () => {
    const response = await chat({ options: { seed: 7 } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const chunks = await ndjson(response);
    expect(chunks.length).toBeGreaterThan(10);
    const final = chunks.at(-1) as Record<string, unknown>;
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk).toMatchObject({ model: 'llama3', done: false, message: { role: 'assistant' } });
      expect(Number.isNaN(Date.parse(String(chunk.created_at)))).toBe(false);
    }
    expect(final).toMatchObject({
      done: true,
      done_reason: 'stop',
      message: { role: 'assistant', content: '' },
    });
    const text = chatText(chunks);
    expect(final.eval_count).toBe(countTokens(text));
    expect(final.prompt_eval_count).toBeGreaterThan(40);
    for (const key of DURATIONS) expect(Number.isInteger(final[key])).toBe(true);
    // gpu profile: 110 tokens/s decode, so eval_duration is eval_count / 110 seconds, in nanoseconds.
    expect(final.eval_duration).toBe(Math.round(((final.eval_count as number) / 110) * 1e9));
    expect(final.total_duration).toBe(
      (final.load_duration as number) +
        (final.prompt_eval_duration as number) +
        (final.eval_duration as number),
    );
  });

  it('answers non-streamed chat with one object holding the same content', async () => {
    const streamed = chatText(await ndjson(await chat({ options: { seed: 7 } })));
    const whole = await client.chat({ model: 'llama3', messages: debateMessages(), options: { seed: 7 } });
    expect(whole.message.content).toBe(streamed);
    expect(whole.done).toBe(true);
    expect(whole.done_reason).toBe('stop');
    expect(whole.eval_count).toBe(countTokens(streamed));
    expect(whole.prompt_eval_duration).toBeGreaterThan(0);
    expect(whole.message.content).toContain('Ban private cars from city centres');
  });

  it('streams through the official client too', async () => {
    const stream = await client.chat({ model: 'llama3', messages: debateMessages(), stream: true });
    const parts: string[] = [];
    let last: { done: boolean; eval_count: number } | undefined;
    for await (const part of stream) {
      parts.push(part.message.content);
      last = part;
    }
    expect(parts.length).toBeGreaterThan(10);
    expect(last?.done).toBe(true);
    expect(last?.eval_count).toBe(countTokens(parts.join('')));
  });

  it('serves /api/generate with response pieces and a context array', async () => {
    const response = await post(`${server.url}/api/generate`, {
      model: 'mistral',
      system: 'Motion: Schools should start later',
      prompt: 'Argue the case.',
    });
    const chunks = await ndjson(response);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks[0]).toMatchObject({ model: 'mistral', done: false });
    expect(typeof chunks[0]?.response).toBe('string');
    const final = chunks.at(-1) as Record<string, unknown>;
    expect(final).toMatchObject({ done: true, response: '' });
    expect(Array.isArray(final.context)).toBe(true);
    const whole = await client.generate({
      model: 'mistral',
      system: 'Motion: Schools should start later',
      prompt: 'Argue the case.',
    });
    expect(whole.response).toBe(chunks.map((c) => c.response).join(''));
    expect(whole.response).toContain('Schools should start later');
    expect(server.stats().generateRequests).toBe(2);
  });

  it('is deterministic per request and varies with seed and prompt', async () => {
    const ask = (seed: number, content = 'Give your opening speech.') =>
      client.chat({
        model: 'llama3',
        messages: debateMessages({ ask: content }),
        options: { seed, temperature: 0.8 },
      });
    const a = await ask(1);
    const b = await ask(1);
    const c = await ask(2);
    const d = await ask(1, 'Give your rebuttal.');
    expect(b.message.content).toBe(a.message.content);
    expect(c.message.content).not.toBe(a.message.content);
    expect(d.message.content).not.toBe(a.message.content);
  });

  it('honours num_predict: cuts the answer, reports length and eval_count equal to the cap', async () => {
    const full = await client.chat({ model: 'llama3', messages: debateMessages(), options: { seed: 3 } });
    const cut = await client.chat({
      model: 'llama3',
      messages: debateMessages(),
      options: { seed: 3, num_predict: 12 },
    });
    expect(cut.done_reason).toBe('length');
    expect(cut.eval_count).toBe(12);
    expect(countTokens(cut.message.content)).toBe(12);
    expect(full.message.content.startsWith(cut.message.content)).toBe(true);
    const unlimited = await client.chat({
      model: 'llama3',
      messages: debateMessages(),
      options: { seed: 3, num_predict: -1 },
    });
    expect(unlimited.done_reason).toBe('stop');
    expect(unlimited.message.content).toBe(full.message.content);
  });

  it('returns JSON matching a schema given as format', async () => {
    const format = {
      type: 'object',
      properties: {
        winner: { type: 'string', enum: ['X', 'Y'] },
        score: { type: 'integer', minimum: 1, maximum: 10 },
        unanimous: { type: 'boolean' },
        comments: { type: 'string' },
        highlights: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
      },
      required: ['winner', 'score', 'unanimous', 'comments', 'highlights'],
    };
    for (const seed of [1, 2, 3, 4, 5]) {
      const answer = await client.chat({
        model: 'llama3',
        messages: debateMessages(),
        format,
        options: { seed },
      });
      const value = JSON.parse(answer.message.content) as Record<string, unknown>;
      expect(Object.keys(value).sort()).toEqual(['comments', 'highlights', 'score', 'unanimous', 'winner']);
      expect(['X', 'Y']).toContain(value.winner);
      expect(Number.isInteger(value.score)).toBe(true);
      expect(value.score).toBeGreaterThanOrEqual(1);
      expect(value.score).toBeLessThanOrEqual(10);
      expect(typeof value.unanimous).toBe('boolean');
      expect(String(value.comments)).toMatch(/^[A-Z].*\.$/);
      expect((value.highlights as unknown[]).length).toBeGreaterThanOrEqual(1);
    }
  });

  it('returns a JSON object for format "json", and cut JSON under num_predict', async () => {
    const answer = await client.chat({ model: 'llama3', messages: debateMessages(), format: 'json' });
    expect(JSON.parse(answer.message.content)).toEqual({ answer: expect.any(String) });
    const cut = await client.chat({
      model: 'llama3',
      messages: debateMessages(),
      format: 'json',
      options: { num_predict: 4 },
    });
    expect(cut.done_reason).toBe('length');
    expect(() => JSON.parse(cut.message.content)).toThrow();
  });

  it('answers an empty conversation by loading the model, and a whitespace one with text', async () => {
    const empty = await client.chat({ model: 'llama3', messages: [] });
    expect(empty).toMatchObject({
      done: true,
      done_reason: 'load',
      message: { role: 'assistant', content: '' },
    });
    const blank = await client.chat({ model: 'llama3', messages: [{ role: 'user', content: '   ' }] });
    expect(blank.message.content.length).toBeGreaterThan(0);
    expect(blank.prompt_eval_count).toBeGreaterThan(0);
  });

  it('adds a thinking trace when think is true', async () => {
    const answer = await client.chat({ model: 'llama3', messages: debateMessages(), think: true });
    expect(answer.message.thinking?.length).toBeGreaterThan(10);
    expect(answer.eval_count).toBe(
      countTokens(answer.message.thinking ?? '') + countTokens(answer.message.content),
    );
  });
});

describe('speech length', () => {
  it('answers debate requests with speeches of the configured length', async () => {
    const server = await startMockOllama({
      models: ['llama3'],
      speechLength: { minWords: 350, maxWords: 650 },
    });
    try {
      const client = new Ollama({ host: server.url });
      const reply = await client.chat({ model: 'llama3', messages: debateMessages(), options: { seed: 7 } });
      const words = reply.message.content.split(/\s+/).length;
      expect(words).toBeGreaterThan(320);
      expect(words).toBeLessThan(700);
    } finally {
      await server.close();
    }
  });

  it('refuses lengths that are not whole words in order', async () => {
    await expect(startMockOllama({ speechLength: { minWords: 500, maxWords: 100 } })).rejects.toThrow(
      /speechLength/,
    );
  });
});
