import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatTap } from '../src/llm/chat-tap.js';
import { type ChatStreamPart, streamChat } from '../src/llm/ollama-chat-stream.js';
import { type OpenAiChunk, streamChatCompletion } from '../src/llm/openai-chat-stream.js';

/** Two-, three- and four-byte characters, each of which the server cuts in two. */
const pieces = ['Café ', 'crème — ', '中文 ', 'done 🙂', '👍🏽!'];
const expected = pieces.join('');

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/**
 * Byte offsets that fall inside multi-byte characters: one byte after each character's lead byte,
 * and for a four-byte character one byte before its end as well.
 */
function cutsInside(bytes: Buffer): number[] {
  const cuts: number[] = [];
  for (let at = 0; at < bytes.length; at += 1) {
    const byte = bytes[at] ?? 0;
    if (byte < 0xc0) continue;
    cuts.push(at + 1);
    if (byte >= 0xf0) cuts.push(at + 3);
  }
  return cuts;
}

/**
 * Starts a server on 127.0.0.1 that answers any request with `body`, written in slices cut inside
 * its multi-byte characters, with a pause between writes so that each slice is a read of its own.
 * Returns its base URL and the paths it was asked for.
 */
async function serveSplit(contentType: string, body: string): Promise<{ url: string; paths: string[] }> {
  const bytes = Buffer.from(body);
  const cuts = cutsInside(bytes);
  expect(cuts.length).toBeGreaterThan(5);
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': contentType });
      let start = 0;
      for (const cut of [...cuts, bytes.length]) {
        res.write(bytes.subarray(start, cut));
        start = cut;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      res.end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths };
}

/** A tap that keeps the raw pieces of the answer's body, as the reader received them. */
function rawPieces(): { tap: ChatTap; received: Uint8Array[] } {
  const received: Uint8Array[] = [];
  const tap: ChatTap = {
    begin: () => ({
      status: () => undefined,
      chunk: (data) => {
        received.push(typeof data === 'string' ? Buffer.from(data) : data);
      },
      end: () => undefined,
    }),
  };
  return { tap, received };
}

/** Whether some piece ended partway through a character (so the test did split one across reads). */
function someCharacterWasSplit(received: Uint8Array[]): boolean {
  const strict = new TextDecoder('utf-8', { fatal: true });
  return received.some((piece) => {
    try {
      strict.decode(piece);
      return false;
    } catch {
      return true;
    }
  });
}

describe('the stream readers decode UTF-8 split across network reads', () => {
  it('Ollama NDJSON stream: characters cut between chunks arrive whole', async () => {
    const lines = pieces.map(
      (content) =>
        `${JSON.stringify({ model: 'llama3', message: { role: 'assistant', content }, done: false })}\n`,
    );
    const doneLine = `${JSON.stringify({ model: 'llama3', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', eval_count: 5 })}\n`;
    const { url: host, paths } = await serveSplit('application/x-ndjson', lines.join('') + doneLine);
    const { tap, received } = rawPieces();
    const parts: ChatStreamPart[] = [];
    const done = await streamChat(
      host,
      { model: 'llama3', messages: [{ role: 'user', content: 'Speak.' }], stream: true },
      AbortSignal.timeout(10_000),
      (part) => parts.push(part),
      tap,
    );
    expect(paths).toEqual(['/api/chat']);
    expect(someCharacterWasSplit(received)).toBe(true);
    const contents = parts.map((part) => part.message?.content ?? '');
    expect(contents.join('')).toBe(expected);
    expect(contents.slice(0, pieces.length)).toEqual(pieces);
    expect(contents.join('')).not.toContain('\uFFFD');
    expect(done).toMatchObject({ done: true, done_reason: 'stop', eval_count: 5 });
  });

  it('OpenAI SSE stream: characters cut between chunks arrive whole', async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ object: 'chat.completion.chunk', model: 'mistral', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const body = `${pieces.map((content) => chunk({ content })).join('')}${chunk({}, 'stop')}data: [DONE]\n\n`;
    const { url: base, paths } = await serveSplit('text/event-stream', body);
    const { tap, received } = rawPieces();
    const chunks: OpenAiChunk[] = [];
    const result = await streamChatCompletion(
      `${base}/v1`,
      undefined,
      { model: 'mistral', messages: [{ role: 'user', content: 'Speak.' }], stream: true },
      AbortSignal.timeout(10_000),
      (received) => chunks.push(received),
      tap,
    );
    expect(paths).toEqual(['/v1/chat/completions']);
    expect(someCharacterWasSplit(received)).toBe(true);
    const contents = chunks.map((received) => received.choices?.[0]?.delta?.content ?? '');
    expect(contents.join('')).toBe(expected);
    expect(contents.slice(0, pieces.length)).toEqual(pieces);
    expect(contents.join('')).not.toContain('\uFFFD');
    expect(chunks.at(-1)?.choices?.[0]?.finish_reason).toBe('stop');
    expect(result).toEqual({ done: true });
  });
});
