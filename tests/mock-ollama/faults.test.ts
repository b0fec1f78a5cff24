import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockOllama, type ScriptRule, startMockOllama } from '../../src/mock-ollama/index.js';
import { chatText, json, ndjson, post } from './helpers.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function scripted(script: ScriptRule[]): Promise<MockOllama> {
  const server = await startMockOllama({ script });
  servers.push(server);
  return server;
}

function chat(
  server: MockOllama,
  content: string,
  extra: Record<string, unknown> = {},
  init: RequestInit = {},
) {
  return post(
    `${server.url}/api/chat`,
    { model: 'llama3', messages: [{ role: 'user', content }], ...extra },
    init,
  );
}

/** Reads a streamed body line by line until it ends or breaks; returns the lines and any error. */
async function readLines(response: Response): Promise<{ lines: string[]; error: unknown }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  let error: unknown;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch (caught) {
    error = caught;
  }
  return { lines: text.split('\n').filter((l) => l !== ''), error };
}

describe('scripted replies', () => {
  it('replies with scripted text and JSON, streamed and cut by num_predict', async () => {
    const server = await scripted([
      { match: { text: 'verdict' }, json: { winner: 'X', score: 9 } },
      {
        match: { regex: '^say\\s+hello' },
        reply: 'Hello there, this is a scripted reply with several words in it.',
      },
    ]);
    const chunks = await ndjson(await chat(server, 'say hello please'));
    expect(chunks.length).toBeGreaterThan(3);
    expect(chatText(chunks)).toBe('Hello there, this is a scripted reply with several words in it.');
    const cut = await (
      await chat(server, 'say hello', { stream: false, options: { num_predict: 3 } })
    ).json();
    expect(cut).toMatchObject({ done_reason: 'length', eval_count: 3, message: { content: 'Hello there,' } });
    const verdict = await json(await chat(server, 'give the verdict', { stream: false }));
    expect(JSON.parse(verdict.message?.content ?? '')).toEqual({ winner: 'X', score: 9 });
  });

  it('uses a rule only `times` times, with counters per server', async () => {
    const script: ScriptRule[] = [{ times: 2, reply: 'scripted' }];
    const server = await scripted(script);
    const client = new Ollama({ host: server.url });
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) {
      answers.push(
        (await client.chat({ model: 'llama3', messages: [{ role: 'user', content: 'go' }] })).message.content,
      );
    }
    expect(answers.slice(0, 2)).toEqual(['scripted', 'scripted']);
    expect(answers[2]).not.toBe('scripted');
    const fresh = await scripted(script);
    const again = await new Ollama({ host: fresh.url }).chat({
      model: 'llama3',
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(again.message.content).toBe('scripted');
  });

  it('matches on model (with or without :latest), endpoint and whole prompt', async () => {
    const server = await scripted([
      { match: { model: 'mistral:latest', endpoint: 'chat' }, reply: 'mistral chat' },
      { match: { endpoint: 'generate', prompt: 'SECRET' }, reply: 'generate secret' },
      { match: { prompt: 'Motion: cats' }, reply: 'about cats' },
    ]);
    const client = new Ollama({ host: server.url });
    const m = await client.chat({ model: 'mistral', messages: [{ role: 'user', content: 'x' }] });
    expect(m.message.content).toBe('mistral chat');
    const g = await client.generate({ model: 'llama3', system: 'SECRET', prompt: 'x' });
    expect(g.response).toBe('generate secret');
    const c = await client.chat({
      model: 'llama3',
      messages: [
        { role: 'system', content: 'Motion: cats' },
        { role: 'user', content: 'speak' },
      ],
    });
    expect(c.message.content).toBe('about cats');
    const other = await client.chat({ model: 'llama3', messages: [{ role: 'user', content: 'speak' }] });
    expect(['mistral chat', 'generate secret', 'about cats']).not.toContain(other.message.content);
  });

  it('waits latencyMs before answering', async () => {
    const server = await scripted([{ latencyMs: 60, reply: 'slow' }]);
    const started = Date.now();
    const answer = await json(await chat(server, 'x', { stream: false }));
    expect(answer.message?.content).toBe('slow');
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });
});

describe('scripted faults', () => {
  it('error-500 and busy-503 return Ollama-style error bodies', async () => {
    const server = await scripted([
      { match: { text: 'crash' }, fault: 'error-500' },
      { match: { text: 'busy' }, fault: 'busy-503' },
      { match: { text: 'custom' }, fault: 'error-500', status: 502, error: 'bad gateway' },
    ]);
    const crash = await chat(server, 'crash');
    expect(crash.status).toBe(500);
    expect(typeof (await json(crash)).error).toBe('string');
    const busy = await chat(server, 'busy');
    expect(busy.status).toBe(503);
    expect(await busy.json()).toEqual({
      error: 'server busy, please try again.  maximum pending requests exceeded',
    });
    const custom = await chat(server, 'custom');
    expect(custom.status).toBe(502);
    expect(await custom.json()).toEqual({ error: 'bad gateway' });
    const client = new Ollama({ host: server.url });
    await expect(
      client.chat({ model: 'llama3', messages: [{ role: 'user', content: 'busy' }] }),
    ).rejects.toMatchObject({
      status_code: 503,
    });
    expect(server.stats().faults).toBe(4);
  });

  it('not-found-404 and bad-request-400 imitate those replies', async () => {
    const server = await scripted([
      { match: { text: 'gone' }, fault: 'not-found-404' },
      { match: { text: 'bad' }, fault: 'bad-request-400', error: 'invalid options' },
    ]);
    const gone = await chat(server, 'gone');
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: 'model "llama3" not found, try pulling it first' });
    const bad = await chat(server, 'bad');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'invalid options' });
  });

  it('hang never answers until the client gives up, and close() still ends the server', async () => {
    const server = await scripted([{ fault: 'hang' }]);
    const controller = new AbortController();
    let settled = false;
    const hanging = chat(server, 'x', {}, { signal: controller.signal }).finally(() => {
      settled = true;
    });
    // Wait until the server has the request (a loaded machine may take a while), then give it time to answer.
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    controller.abort();
    await expect(hanging).rejects.toThrow(/abort/i);
    expect(server.requests.at(-1)).toMatchObject({ path: '/api/chat', fault: 'hang' });
    expect(server.requests.at(-1)?.status).toBeUndefined();

    // A request still hanging when the server closes is cut off rather than keeping it alive.
    const pending = chat(server, 'y').then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    const closing = Date.now();
    await server.close();
    expect(Date.now() - closing).toBeLessThan(10_000);
    expect(await pending).toBe('failed');
  });

  it('cut-stream sends some chunks and then drops the connection without done', async () => {
    const server = await scripted([{ fault: 'cut-stream' }]);
    const response = await chat(server, 'x');
    expect(response.status).toBe(200);
    const { lines, error } = await readLines(response);
    expect(error).toBeDefined();
    expect(lines.length).toBeGreaterThan(0);
    const parsed = lines.map((l) => JSON.parse(l) as { done: boolean });
    expect(parsed.every((p) => p.done === false)).toBe(true);

    const client = new Ollama({ host: server.url });
    const consume = async () => {
      const stream = await client.chat({
        model: 'llama3',
        messages: [{ role: 'user', content: 'x' }],
        stream: true,
      });
      for await (const _ of stream) {
        // drain
      }
    };
    await expect(consume()).rejects.toThrow();
    await expect(
      client.chat({ model: 'llama3', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toThrow();
  });

  it('error-in-stream sends chunks, then an error line, and ends', async () => {
    const server = await scripted([{ fault: 'error-in-stream' }]);
    const response = await chat(server, 'x');
    expect(response.status).toBe(200);
    const { lines, error } = await readLines(response);
    expect(error).toBeUndefined();
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.length).toBeGreaterThan(1);
    expect(parsed.at(-1)).toEqual({ error: 'an error was encountered while running the model' });
    expect(parsed.some((p) => p.done === true)).toBe(false);
    const client = new Ollama({ host: server.url });
    const consume = async () => {
      const stream = await client.chat({
        model: 'llama3',
        messages: [{ role: 'user', content: 'x' }],
        stream: true,
      });
      for await (const _ of stream) {
        // drain
      }
    };
    await expect(consume()).rejects.toThrow('an error was encountered while running the model');
  });

  it('malformed-json returns 200 with a line that is not valid JSON', async () => {
    const server = await scripted([{ fault: 'malformed-json' }]);
    const streamed = await chat(server, 'x');
    expect(streamed.status).toBe(200);
    const { lines } = await readLines(streamed);
    const invalid = lines.filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
    expect(invalid).toHaveLength(1);
    const whole = await chat(server, 'x', { stream: false });
    expect(whole.status).toBe(200);
    await expect(whole.json()).rejects.toThrow();
  });

  it('empty gives a normal successful answer with no content', async () => {
    const server = await scripted([{ fault: 'empty' }]);
    const chunks = await ndjson(await chat(server, 'x'));
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({
      done: true,
      done_reason: 'stop',
      eval_count: 0,
      message: { content: '' },
    });
    const client = new Ollama({ host: server.url });
    const whole = await client.chat({ model: 'llama3', messages: [{ role: 'user', content: 'x' }] });
    expect(whole.message.content).toBe('');
    expect(whole.eval_count).toBe(0);
    expect(whole.prompt_eval_count).toBeGreaterThan(0);
  });
});
