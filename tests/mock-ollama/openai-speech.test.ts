/**
 * The simulator's OpenAI-compatible side speaks like the real servers: llama-server's model list
 * (aliases, meta.n_ctx), any name served by a one-model server, its overflow answer and error
 * events, vLLM's flavour, vocabularies that differ by model, and grammar-constrained answers that
 * fill an unbounded string to the cap. The settings can also come from a script file.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  loadMockScriptFile,
  type MockOllama,
  type MockOllamaOptions,
  MockScriptError,
  startMockOllama,
} from '../../src/mock-ollama/index.js';
import { capture } from '../helpers/capture-server.js';
import { tempDir } from '../helpers/cli.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: MockOllamaOptions): Promise<MockOllama> {
  const server = await startMockOllama(options);
  servers.push(server);
  return server;
}

interface Completion {
  status: number;
  events: string[];
  chunks: Array<Record<string, unknown>>;
  text: string;
}

async function complete(server: MockOllama, body: Record<string, unknown>): Promise<Completion> {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    body: JSON.stringify({ stream: true, stream_options: { include_usage: true }, ...body }),
  });
  const raw = await response.text();
  const events = raw.split('\n\n').filter((event) => event !== '');
  const chunks = events
    .filter((event) => event.startsWith('data: {'))
    .map((event) => JSON.parse(event.slice(6)) as Record<string, unknown>);
  const text = chunks
    .flatMap((chunk) => (chunk.choices as Array<{ delta?: { content?: string | null } }> | undefined) ?? [])
    .map((choice) => choice.delta?.content ?? '')
    .join('');
  return { status: response.status, events, chunks, text };
}

const usageOf = (result: Completion) =>
  result.chunks.at(-1)?.usage as { prompt_tokens: number; completion_tokens: number };

const ask = (model: string, content: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content }],
  ...extra,
});

describe('the OpenAI-compatible side speaks like llama-server', () => {
  it('lists ids with their aliases and windows as llama-server does, and serves an alias', async () => {
    const server = await start({
      models: ['stories260k', 'mistral'],
      contextLength: 2048,
      openAi: { aliases: { stories260k: ['stories260k-b'] } },
    });
    const listed = (await (await fetch(`${server.url}/v1/models`)).json()) as {
      data: Array<Record<string, unknown>>;
    };
    const real = JSON.parse(capture('v1-models.json').toString('utf8')) as {
      data: Array<Record<string, unknown>>;
    };
    expect(Object.keys(listed.data[0] ?? {}).sort()).toEqual(Object.keys(real.data[0] ?? {}).sort());
    expect(listed.data[0]).toMatchObject({
      id: 'stories260k',
      aliases: ['stories260k', 'stories260k-b'],
      owned_by: 'llamacpp',
      meta: { n_ctx: 2048 },
    });
    expect(listed.data[0]).not.toHaveProperty('max_model_len');
    const answer = await complete(server, ask('stories260k-b', 'Tell a story.'));
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBeGreaterThan(0);
    // A name neither listed nor an alias is refused by a server of several models.
    expect((await complete(server, ask('gpt-none', 'Hello'))).status).toBe(404);
  });

  it('a one-model server answers any name, under its own', async () => {
    const server = await start({ models: ['stories260k'] });
    const answer = await complete(server, ask('no-such-model', 'Tell a story.'));
    expect(answer.status).toBe(200);
    expect(answer.chunks[0]).toMatchObject({ model: 'stories260k' });
    expect(answer.chunks[0]?.choices).toEqual([
      { finish_reason: null, index: 0, delta: { role: 'assistant', content: null } },
    ]);
  });

  it('refuses a prompt over the window with exceed_context_size_error and its numbers', async () => {
    const server = await start({ models: ['mistral'], contextLength: 256 });
    const result = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(ask('mistral', 'congestion pricing and retail footfall '.repeat(100))),
    });
    expect(result.status).toBe(400);
    const body = (await result.json()) as { error: Record<string, unknown> };
    const real = JSON.parse(capture('overflow-400.http').toString('utf8').split('\r\n\r\n')[1] as string) as {
      error: Record<string, unknown>;
    };
    expect(Object.keys(body.error).sort()).toEqual(Object.keys(real.error).sort());
    expect(body.error).toMatchObject({ code: 400, type: 'exceed_context_size_error', n_ctx: 256 });
    expect(body.error.n_prompt_tokens).toBeGreaterThan(256);
    expect(body.error.message).toBe(
      `request (${body.error.n_prompt_tokens} tokens) exceeds the available context size (256 tokens), try increasing it`,
    );
  });

  it('sends an error inside a 200 stream as llama-server does: no finish reason and no [DONE]', async () => {
    const server = await start({
      models: ['mistral'],
      script: [{ fault: 'error-in-stream', error: 'Failed to parse input' }],
    });
    const result = await complete(server, ask('mistral', 'Hello'));
    expect(result.status).toBe(200);
    expect(result.events.at(-1)).toBe(
      'data: {"error":{"code":500,"message":"Failed to parse input","type":"server_error"}}',
    );
    expect(result.events).not.toContain('data: [DONE]');
    expect(JSON.stringify(result.chunks)).not.toMatch(/"finish_reason":"(stop|length)"/);
  });

  it('speaks like vLLM when asked: max_model_len, no /props, its words for an overflow', async () => {
    const server = await start({ models: ['mistral'], contextLength: 256, openAi: { flavour: 'vllm' } });
    const listed = (await (await fetch(`${server.url}/v1/models`)).json()) as { data: unknown[] };
    expect(listed.data[0]).toMatchObject({ id: 'mistral', owned_by: 'vllm', max_model_len: 256 });
    expect((await fetch(`${server.url}/props`)).status).toBe(404);
    // vLLM refuses names it does not serve, even with one model.
    expect((await complete(server, ask('other', 'Hello'))).status).toBe(404);
    const result = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(ask('mistral', 'congestion pricing and retail footfall '.repeat(100))),
    });
    expect(result.status).toBe(400);
    expect(((await result.json()) as { message: string }).message).toMatch(
      /^This model's maximum context length is 256 tokens\. However, your request has \d+ input tokens\./,
    );
  });
});

describe('vocabularies and constrained answers', () => {
  it('counts the same prompt in more tokens with a smaller vocabulary', async () => {
    const server = await start({ models: ['mistral', 'stories'], vocabularies: { stories: 'small' } });
    const prompt = 'Congestion pricing reduces traffic and improves air quality in crowded city centres.';
    const standard = usageOf(await complete(server, ask('mistral', prompt)));
    const small = usageOf(await complete(server, ask('stories', prompt)));
    const chars = prompt.length;
    expect(chars / standard.prompt_tokens).toBeGreaterThan(3);
    expect(chars / small.prompt_tokens).toBeLessThan(2.5);
  });

  it('fills an unbounded string until the cap; a bounded one closes and the rest follows', async () => {
    const server = await start({ models: ['mistral'], unboundedStrings: 'fill' });
    const schema = (bounded: boolean) => ({
      type: 'object',
      properties: {
        comments: { type: 'string', ...(bounded ? { maxLength: 40 } : {}) },
        score: { type: 'integer', minimum: 1, maximum: 5 },
      },
      required: ['comments', 'score'],
    });
    const format = (bounded: boolean) => ({
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: schema(bounded) } },
      max_tokens: 60,
    });
    const cut = await complete(server, ask('mistral', 'Judge it.', format(false)));
    expect(JSON.stringify(cut.chunks)).toContain('"finish_reason":"length"');
    expect(usageOf(cut).completion_tokens).toBe(60);
    expect(() => JSON.parse(cut.text)).toThrow();
    const closed = await complete(server, ask('mistral', 'Judge it.', format(true)));
    const answer = JSON.parse(closed.text) as { comments: string; score: number };
    expect(answer.comments.length).toBeLessThanOrEqual(40);
    expect(answer.score).toBeGreaterThanOrEqual(1);
  });
});

describe('settings in a script file', () => {
  it('are read beside the rules, and a wrong one is named with its line', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'script.yaml');
    writeFileSync(
      file,
      'openAi:\n  aliases: { mistral: [mistral-b] }\nvocabularies: { mistral: small }\nunboundedStrings: fill\nrules:\n  - reply: Hi\n',
    );
    const script = await loadMockScriptFile(file);
    expect(script.settings).toEqual({
      openAi: { aliases: { mistral: ['mistral-b'] } },
      vocabularies: { mistral: 'small' },
      unboundedStrings: 'fill',
    });
    expect(script.rules).toEqual([{ reply: 'Hi' }]);
    writeFileSync(file, 'rules: []\nvocabularies: { mistral: huge }\n');
    const error = await loadMockScriptFile(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MockScriptError);
    expect((error as Error).message).toMatch(/script\.yaml:2: vocabularies\.mistral: /);
  });
});
