/**
 * A server that answers with the bytes a real llama-server sent (tests/fixtures/real-llama-server):
 * `.http` files are whole responses (status line, headers, body), `.sse` and `.json` files are
 * bodies sent as they are. It speaks raw TCP so nothing is added to or taken from those bytes.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CAPTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'real-llama-server',
);

/** One capture's bytes. */
export function capture(name: string): Buffer {
  return readFileSync(path.join(CAPTURES, name));
}

export interface CapturedRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface CaptureServer {
  url: string;
  requests: CapturedRequest[];
  close(): Promise<void>;
}

function response(file: string, prefix = ''): Buffer {
  const bytes = Buffer.concat([Buffer.from(prefix), capture(file)]);
  if (file.endsWith('.http')) return bytes;
  const type = file.endsWith('.sse') ? 'text/event-stream' : 'application/json; charset=utf-8';
  const head = `HTTP/1.1 200 OK\r\nServer: llama.cpp\r\nContent-Type: ${type}\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), bytes]);
}

/**
 * Serves `routes` (a path, or `POST /path`, to a capture's file name; a list is served in turn,
 * its last file from then on). `prefix` is written before a body (to add comment lines, say).
 */
export async function startCaptureServer(
  routes: Record<string, string | string[]>,
  options: { prefix?: string } = {},
): Promise<CaptureServer> {
  const requests: CapturedRequest[] = [];
  const served = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffer = Buffer.alloc(0);
    socket.on('data', (data) => {
      buffer = Buffer.concat([buffer, data]);
      const end = buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = buffer.subarray(0, end).toString('latin1');
      const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      const [method = 'GET', target = '/'] = head.split(' ');
      const text = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      const route = routes[`${method} ${target}`] ?? routes[target];
      requests.push({ method, path: target, body: text === '' ? undefined : JSON.parse(text) });
      if (route === undefined) {
        socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        return;
      }
      const files = Array.isArray(route) ? route : [route];
      const index = served.get(target) ?? 0;
      served.set(target, index + 1);
      const file = files[Math.min(index, files.length - 1)] as string;
      socket.end(response(file, file.endsWith('.http') ? '' : (options.prefix ?? '')));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
