import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import type { ChatRequest } from '../../src/llm/provider.js';
import { failure } from '../helpers/provider-errors.js';

/** What Ollama sends in a chat stream, written in the byte slices a test chooses. */
const line = (content: string) =>
  `${JSON.stringify({ model: 'llama3', message: { role: 'assistant', content }, done: false })}\n`;
const doneLine = `${JSON.stringify({ model: 'llama3', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 12, eval_count: 3, total_duration: 5e6 })}\n`;

const request: ChatRequest = {
  model: 'llama3',
  messages: [{ role: 'user', content: 'Speak.' }],
  maxTokens: 50,
  contextWindow: 2048,
  temperature: 0.5,
  seed: 1,
};

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A bare HTTP server on 127.0.0.1 that answers every request with `answer`. */
async function serve(answer: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => void answer(req, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new OllamaProvider({ host: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the chat stream reader', () => {
  it('joins lines and characters split across network writes', async () => {
    const bytes = Buffer.from(line('Größe ') + line('matters — ') + line('日本') + doneLine);
    const provider = await serve(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      // Three-byte slices cut through lines and through multi-byte characters.
      for (let at = 0; at < bytes.length; at += 3) {
        res.write(bytes.subarray(at, at + 3));
        if (at % 60 === 0) await pause();
      }
      res.end();
    });
    const deltas: string[] = [];
    const result = await provider.chat(request, { onDelta: (piece) => deltas.push(piece) });
    expect(result.text).toBe('Größe matters — 日本');
    expect(deltas).toEqual(['Größe ', 'matters — ', '日本']);
    expect(result).toMatchObject({ promptTokens: 12, outputTokens: 3, stopReason: 'stop' });
  });

  it('reads a final line that has no newline', async () => {
    const provider = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(line('Last words.') + doneLine.trimEnd());
    });
    expect((await provider.chat(request)).text).toBe('Last words.');
  });

  it('reports an HTTP error with the text of a body that is not JSON', async () => {
    const provider = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('upstream proxy failed');
    });
    const error = await failure(provider.chat(request));
    expect(error.kind).toBe('server-error');
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/upstream proxy failed/);
  });

  it('treats a connection closed mid-stream as a cut-off answer', async () => {
    const provider = await serve(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(line('Half a '));
      await pause();
      res.socket?.destroy();
    });
    const error = await failure(provider.chat(request));
    expect(error.kind).toBe('stream-incomplete');
    expect(error.isRetryable).toBe(true);
  });

  it('fails on a line that is JSON but not an object', async () => {
    const provider = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(`${line('Fine.')}42\n${doneLine}`);
    });
    const error = await failure(provider.chat(request));
    expect(error.kind).toBe('server-error');
    expect(error.message).toMatch(/malformed line/);
  });

  it('classifies a closed port as unreachable for a chat too', async () => {
    const provider = await serve(() => undefined);
    const port = new URL(provider.host).port;
    await new Promise((resolve) => servers.splice(0)[0]?.close(resolve));
    const error = await failure(new OllamaProvider({ host: `http://127.0.0.1:${port}` }).chat(request));
    expect(error.kind).toBe('unreachable');
    expect(error.message).toMatch(/ECONNREFUSED/);
  });
});
