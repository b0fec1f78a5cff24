/** Small pieces of HTTP the viewer needs: bodies, cookies, security headers and typed client errors. */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request the viewer refuses, with the status and the one-line reason it sends back. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const BODY_LIMIT = 64 * 1024;

/** The request's body as fields: JSON, or an HTML form's urlencoded fields. */
export async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new HttpError(413, 'the request body is larger than 64 KB');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // Falls through to the error below.
  }
  throw new HttpError(400, 'the request body must be a JSON object or form fields');
}

/** A cookie value; one with broken percent-encoding is kept as sent (it then matches nothing). */
function decodeCookie(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function cookies(request: IncomingMessage): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) jar.set(part.slice(0, at).trim(), decodeCookie(part.slice(at + 1).trim()));
  }
  return jar;
}

/** Compares secrets in constant time. */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  // Not no-referrer: with it, browsers send `Origin: null` on form posts and the origin check fails.
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

export function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': type,
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(body);
}

export const sendJson = (response: ServerResponse, status: number, value: unknown) =>
  send(response, status, 'application/json; charset=utf-8', `${JSON.stringify(value)}\n`);

export const sendHtml = (response: ServerResponse, status: number, body: string) =>
  send(response, status, 'text/html; charset=utf-8', body);

export function startEventStream(response: ServerResponse): void {
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  });
  response.flushHeaders();
}

/** One server-sent event; `data` is JSON, which never contains a raw newline. */
export function writeEvent(response: ServerResponse, kind: string, data: unknown, id?: number): void {
  response.write(`event: ${kind}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`);
}
