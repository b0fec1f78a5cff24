/**
 * Small HTTP helpers shared by the routes: body reading, JSON and error replies, and waits that
 * end early when the client goes away or the server closes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';

/** Bodies larger than this are refused; debate prompts are far smaller. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Reads the whole request body as text. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Sends a JSON body with Ollama's content type. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Sends `{"error": message}`, the shape of every Ollama error. */
export function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { error: message });
}

/** Sends a plain-text body. */
export function sendText(res: ServerResponse, status: number, text: string, head = false): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(head ? undefined : text);
}

/** Waits `ms` real milliseconds; resolves false (early) if `signal` aborts. */
export async function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (ms <= 0) return true;
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Waits until the real time `at` (ms since epoch); false if aborted first. */
export function sleepUntil(at: number, signal: AbortSignal): Promise<boolean> {
  return sleep(at - Date.now(), signal);
}

/** Writes one chunk and waits until it is handed to the socket, so a following destroy keeps it. */
export function writeFlushed(res: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => {
    res.write(chunk, () => resolve());
  });
}
