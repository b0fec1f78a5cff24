/** The web viewer for a test: a real HTTP server on 127.0.0.1 whose debates run in real worker processes. */
import { connect } from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { afterEach } from 'vitest';
import { startViewer, type Viewer, type ViewerOptions } from '../../src/web/server.js';
import { processLauncher } from '../../src/web/workers.js';
import { projectRoot } from './cli.js';

export function useViewers() {
  const viewers: Viewer[] = [];
  afterEach(async () => {
    await Promise.all(viewers.splice(0).map((viewer) => viewer.close()));
  });
  return async (options: { outDir: string; ollamaHost: string } & Partial<ViewerOptions>) => {
    const viewer = await startViewer({
      cwd: projectRoot,
      scenariosDir: path.join(projectRoot, 'scenarios'),
      port: 0,
      launcher: processLauncher({ cwd: projectRoot, env: { ...process.env, NO_COLOR: '1' } }),
      logger: pino({ enabled: false }),
      pollMs: 50,
      ...options,
    });
    viewers.push(viewer);
    return viewer;
  };
}

/** The same-origin token a page carries. */
export async function pageToken(viewer: Viewer): Promise<string> {
  const body = await (await fetch(`${viewer.url}/`)).text();
  const token = /name="agora-token" content="([^"]+)"/.exec(body)?.[1];
  if (!token) throw new Error('the page has no token');
  return token;
}

export function postJson(viewer: Viewer, route: string, body: unknown, token: string | null) {
  return fetch(`${viewer.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === null ? {} : { 'x-agora-token': token }) },
    body: JSON.stringify(body),
  });
}

/** Starts a debate through the API and returns its run id (the request must succeed). */
export async function startRun(
  viewer: Viewer,
  token: string,
  body: Record<string, unknown>,
): Promise<string> {
  const response = await postJson(viewer, '/api/runs', body, token);
  if (response.status !== 202)
    throw new Error(`start refused (${response.status}): ${await response.text()}`);
  return ((await response.json()) as { runId: string }).runId;
}

export interface StreamMessage {
  event: string;
  id?: number;
  data: Record<string, unknown>;
}

/** Reads a run's server-sent events until `done` says so (or the time is up). */
export async function readStream(
  viewer: Viewer,
  runId: string,
  done: (messages: StreamMessage[]) => boolean,
  options: { lastEventId?: number; timeoutMs?: number } = {},
): Promise<StreamMessage[]> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? 600_000);
  const messages: StreamMessage[] = [];
  try {
    const response = await fetch(`${viewer.url}/api/runs/${encodeURIComponent(runId)}/stream`, {
      headers: options.lastEventId === undefined ? {} : { 'last-event-id': String(options.lastEventId) },
      signal: abort.signal,
    });
    if (!response.body) throw new Error(`no stream: ${response.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const fields = new Map(
          block
            .split('\n')
            .filter((line) => !line.startsWith(':') && line.includes(': '))
            .map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]),
        );
        if (!fields.has('event')) continue;
        messages.push({
          event: fields.get('event') as string,
          ...(fields.has('id') ? { id: Number(fields.get('id')) } : {}),
          data: JSON.parse(fields.get('data') ?? '{}'),
        });
      }
      if (done(messages)) break;
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
    throw new Error(`the stream did not finish in time; got ${messages.map((m) => m.event).join(', ')}`);
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return messages;
}

export const runEnded = (messages: StreamMessage[]) =>
  messages.some((message) => message.event === 'run-event' && message.data.type === 'run-end');

export interface RawReply {
  status: number;
  headers: string;
  body: string;
}

/**
 * One request written byte for byte over a socket, so the Host header and the request target can be
 * anything a hostile client sends (fetch and node:http would refuse or rewrite some of them).
 */
export function rawRequest(
  port: number,
  request: {
    method?: string;
    target: string;
    host: string | null;
    headers?: Record<string, string>;
    body?: string;
  },
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const lines = [
      `${request.method ?? 'GET'} ${request.target} HTTP/1.1`,
      ...(request.host === null ? [] : [`Host: ${request.host}`]),
      ...Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
      ...(request.body === undefined ? [] : [`Content-Length: ${Buffer.byteLength(request.body)}`]),
      'Connection: close',
    ];
    let received = '';
    socket.setEncoding('utf8');
    socket.setTimeout(600_000, () => socket.destroy(new Error('no answer in 600 s')));
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      const split = received.indexOf('\r\n\r\n');
      resolve({
        status,
        headers: split === -1 ? received : received.slice(0, split),
        body: split === -1 ? '' : received.slice(split + 4),
      });
    });
    socket.end(`${lines.join('\r\n')}\r\n\r\n${request.body ?? ''}`);
  });
}
