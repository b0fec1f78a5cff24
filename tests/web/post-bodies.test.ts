/**
 * Every state change of the viewer, posted as HTTP clients send it: with a Content-Length, or
 * chunked without one. Each gets a 2xx (or a redirect after a form) or a 4xx that says what was
 * wrong, never a 500, for good requests and for each kind of bad one.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { pageToken, readStream, runEnded, startRun, useViewers } from '../helpers/viewer.js';

const mock = useMockServers();
const viewers = useViewers();

interface Reply {
  status: number;
  body: string;
}

/** One POST through node:http: `chunked` sends the body with Transfer-Encoding: chunked and no length. */
function post(
  base: string,
  route: string,
  body: string | Buffer,
  options: { chunked: boolean; headers?: Record<string, string> },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const sent = request(
      `${base}${route}`,
      {
        method: 'POST',
        headers: {
          ...options.headers,
          ...(options.chunked
            ? { 'transfer-encoding': 'chunked' }
            : { 'content-length': String(bytes.length) }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    sent.on('error', reject);
    // Chunked: the body in several pieces, as a client streaming it would.
    if (options.chunked) for (let at = 0; at < bytes.length; at += 7) sent.write(bytes.subarray(at, at + 7));
    else sent.write(bytes);
    sent.end();
  });
}

function expectAnswered(reply: Reply, what: string, expected: number): void {
  expect(reply.status, `${what}: ${reply.body}`).toBe(expected);
  if (reply.status >= 400) {
    const message = reply.body.startsWith('{')
      ? (JSON.parse(reply.body) as { error: string }).error
      : reply.body;
    expect(message.length, what).toBeGreaterThan(10);
    expect(message, what).not.toContain('unexpected error');
  }
}

describe('agora serve: POST bodies', () => {
  it('answers every route the same, chunked or sized, and each bad request with a 4xx that says why', async () => {
    const server = await mock();
    const web = await viewers({ outDir: tempDir(), ollamaHost: server.url });
    const token = await pageToken(web);
    const runId = await startRun(web, token, { format: 'knockout', topic: 'Chunked bodies', rounds: 1 });
    await readStream(web, runId, runEnded, { timeoutMs: 600_000 });
    const json = { 'content-type': 'application/json', 'x-agora-token': token };
    const form = { 'content-type': 'application/x-www-form-urlencoded' };

    for (const chunked of [false, true]) {
      const how = chunked ? 'chunked' : 'sized';
      const send = (route: string, body: string | Buffer, headers: Record<string, string> = json) =>
        post(web.url, route, body, { chunked, headers });
      // Good requests.
      expectAnswered(
        await send('/api/runs', JSON.stringify({ format: 'knockout', topic: `Started ${how}`, rounds: 1 })),
        `${how} start`,
        202,
      );
      expectAnswered(
        await send(
          '/runs',
          new URLSearchParams({ token, format: 'knockout', topic: `Form ${how}`, rounds: '1' }).toString(),
          form,
        ),
        `${how} form start`,
        303,
      );
      expectAnswered(
        await send(
          `/api/runs/${runId}/votes`,
          JSON.stringify({ round: 1, choice: 'rotate', voter: `voter-${how}` }),
        ),
        `${how} vote`,
        201,
      );
      // A run that has ended: nothing to stop, nothing to resume.
      expectAnswered(await send(`/api/runs/${runId}/stop`, '{}'), `${how} stop of an ended run`, 409);
      expectAnswered(await send(`/api/runs/${runId}/resume`, '{}'), `${how} resume of an ended run`, 409);
      // Bad requests, one kind at a time.
      for (const route of [
        '/api/runs',
        `/api/runs/${runId}/stop`,
        `/api/runs/${runId}/resume`,
        `/api/runs/${runId}/votes`,
        `/api/runs/${runId}/arena-votes`,
        `/runs/${runId}/arena-votes`,
        `/runs/${runId}/stop`,
        '/runs',
      ]) {
        expectAnswered(
          await send(route, '{}', { 'content-type': 'application/json' }),
          `${how} ${route} without a page token`,
          403,
        );
        expectAnswered(
          await send(route, '{}', { ...json, 'x-agora-token': 'wrong' }),
          `${how} ${route} with a wrong page token`,
          403,
        );
        expectAnswered(await send(route, '{"round": 1,'), `${how} ${route} with broken JSON`, 400);
        expectAnswered(await send(route, '[1, 2]'), `${how} ${route} with a JSON array`, 400);
        expectAnswered(
          await send(route, Buffer.from([0x7b, 0xff, 0xfe, 0x7d])),
          `${how} ${route} with a body that is not UTF-8`,
          400,
        );
        expectAnswered(
          await send(route, JSON.stringify({ topic: 'x'.repeat(70 * 1024) })),
          `${how} ${route} with a body over 64 KB`,
          413,
        );
        expectAnswered(
          await send(route, '{}', { ...json, origin: 'http://evil.example' }),
          `${how} ${route} from another origin`,
          403,
        );
      }
      expectAnswered(await send('/api/runs/not..an-id/stop', '{}'), `${how} stop of a bad run id`, 400);
      expectAnswered(
        await send('/api/runs/20990101-000000-none-s1/stop', '{}'),
        `${how} stop of no run`,
        404,
      );
      expectAnswered(await send(`/api/runs/${runId}/votes`, '{}'), `${how} vote without fields`, 400);
      expectAnswered(await send('/api/runs', '{}'), `${how} start without fields`, 400);
    }
  });
});
