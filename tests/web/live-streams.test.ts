/**
 * Many live streams on one viewer, over real HTTP: a finished run's stream sends its end and
 * closes, a stream starts after the client's Last-Event-ID, one client address holds at most
 * STREAMS_PER_CLIENT streams, and pages are served while 200 streams follow a live run.
 */
import { type ClientRequest, request } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STREAMS_PER_CLIENT } from '../../src/web/run-stream.js';
import { tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { readEvents } from '../helpers/transcripts.js';
import { pageToken, postJson, readStream, runEnded, startRun, useViewers } from '../helpers/viewer.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });
const viewer = useViewers();
type Viewer = Awaited<ReturnType<typeof viewer>>;
const WAIT = { timeout: 600_000, interval: 100 };

interface OpenStream {
  status: number;
  /** Event names and ids received so far. */
  events: Array<{ event: string; id?: number; type?: string }>;
  /** Settles when the server ends the response. */
  closed: Promise<void>;
  request: ClientRequest;
}

const opened: ClientRequest[] = [];
afterEach(() => {
  for (const each of opened.splice(0)) each.destroy();
});

/**
 * Opens a run's stream from `localAddress` (any 127.x address reaches the viewer on 127.0.0.1, so
 * a test can be many clients); settles once `ready` holds for what arrived, or the response ends.
 */
function openStream(
  web: Viewer,
  runId: string,
  options: { localAddress?: string; lastEventId?: number; ready?: (stream: OpenStream) => boolean } = {},
): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port: web.port,
      path: `/api/runs/${encodeURIComponent(runId)}/stream`,
      localAddress: options.localAddress ?? '127.0.0.1',
      headers: options.lastEventId === undefined ? {} : { 'last-event-id': String(options.lastEventId) },
    });
    opened.push(req);
    req.on('error', reject);
    req.on('response', (response) => {
      let closeStream: () => void = () => undefined;
      const stream: OpenStream = {
        status: response.statusCode ?? 0,
        events: [],
        closed: new Promise((done) => {
          closeStream = done;
        }),
        request: req,
      };
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          const field = (name: string) =>
            block
              .split('\n')
              .find((line) => line.startsWith(`${name}: `))
              ?.slice(name.length + 2);
          const event = field('event');
          if (!event) continue;
          const id = field('id');
          const type =
            event === 'run-event' ? (JSON.parse(field('data') ?? '{}') as { type: string }).type : undefined;
          stream.events.push({
            event,
            ...(id === undefined ? {} : { id: Number(id) }),
            ...(type ? { type } : {}),
          });
        }
        if (options.ready?.(stream)) resolve(stream);
      });
      response.on('end', () => {
        closeStream();
        resolve(stream);
      });
      response.on('close', () => {
        closeStream();
        resolve(stream);
      });
      if (stream.status !== 200) response.resume();
    });
    req.end();
  });
}

const hasView = (stream: OpenStream) => stream.events.some((event) => event.event === 'view');
/** 200 streams from ten client addresses, twenty each (within the bound per address). */
const clients = (count: number) => Array.from({ length: count }, (_, index) => `127.0.0.${2 + (index % 10)}`);

describe('live streams', () => {
  it('closes a finished run’s streams after their end, 200 at once, and starts each after its Last-Event-ID', async () => {
    const server = await mock();
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const token = await pageToken(web);
    const runId = await startRun(web, token, { format: 'knockout', topic: 'Finished streams', rounds: 1 });
    await readStream(web, runId, runEnded);
    const events = readEvents(path.join(outDir, runId));
    const last = events.at(-1)?.seq as number;

    const streams = await Promise.all(
      clients(200).map((localAddress) => openStream(web, runId, { localAddress })),
    );
    await Promise.all(streams.map((stream) => stream.closed));
    for (const stream of streams) {
      expect(stream.status).toBe(200);
      expect(stream.events.filter((event) => event.event === 'run-event')).toHaveLength(events.length);
      // The end comes last, after the run's own end and the view of the finished run.
      expect(stream.events.at(-1)).toEqual({ event: 'end' });
      expect(stream.events.some((event) => event.type === 'run-end')).toBe(true);
    }

    const resumed = await openStream(web, runId, { lastEventId: last - 2 });
    await resumed.closed;
    expect(resumed.events.filter((event) => event.event === 'run-event').map((event) => event.id)).toEqual([
      last - 1,
      last,
    ]);
    expect(resumed.events.at(-1)).toEqual({ event: 'end' });
  });

  it('serves pages while 200 streams follow a live run, bounds the streams per client, and starts after Last-Event-ID', async () => {
    const server = await mock();
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const token = await pageToken(web);
    // A debate that waits for the person at the podium stays live for as long as the test needs.
    const started = await postJson(
      web,
      '/api/runs',
      { format: 'knockout', topic: 'Live streams', rounds: 1, human: 'x' },
      token,
    );
    const { runId } = (await started.json()) as { runId: string };
    const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    await expect
      .poll(async () => {
        const podium = await fetch(`${web.url}/api/runs/${runId}/podium`, { headers: { cookie } });
        return ((await podium.json()) as { waiting: boolean }).waiting;
      }, WAIT)
      .toBe(true);
    const events = readEvents(path.join(outDir, runId));
    const last = events.at(-1)?.seq as number;

    const streams = await Promise.all(
      clients(200).map((localAddress) => openStream(web, runId, { localAddress, ready: hasView })),
    );
    for (const stream of streams) {
      expect(stream.status).toBe(200);
      expect(stream.events.filter((event) => event.event === 'run-event')).toHaveLength(events.length);
      expect(stream.events.some((event) => event.event === 'end')).toBe(false);
    }
    // With 200 streams open, a page and the API still answer (docs/benchmarks.md has the times).
    const page = await fetch(`${web.url}/runs/${encodeURIComponent(runId)}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Live streams');
    expect((await fetch(`${web.url}/api/runs`)).status).toBe(200);

    // A stream from the client's last event on gets only what came after it.
    const after = await openStream(web, runId, { lastEventId: last - 1, ready: hasView });
    expect(after.events.filter((event) => event.event === 'run-event').map((event) => event.id)).toEqual([
      last,
    ]);

    // One address holds at most STREAMS_PER_CLIENT streams; the next is refused until one closes.
    const mine = await Promise.all(
      Array.from({ length: STREAMS_PER_CLIENT }, () =>
        openStream(web, runId, { localAddress: '127.0.0.20', ready: hasView }),
      ),
    );
    expect(mine.every((stream) => stream.status === 200)).toBe(true);
    const refused = await openStream(web, runId, { localAddress: '127.0.0.20' });
    expect(refused.status).toBe(429);
    mine[0]?.request.destroy();
    await expect
      .poll(
        async () => (await openStream(web, runId, { localAddress: '127.0.0.20', ready: hasView })).status,
        WAIT,
      )
      .toBe(200);

    // Stopped, the run is finished for now: every open stream gets its end and closes.
    expect((await postJson(web, `/api/runs/${runId}/stop`, {}, token)).status).toBe(202);
    await Promise.all(streams.map((stream) => stream.closed));
    for (const stream of streams) {
      expect(stream.events.at(-1)).toEqual({ event: 'end' });
      expect(stream.events.some((event) => event.type === 'run-end')).toBe(true);
    }
  });
});
