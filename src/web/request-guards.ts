/**
 * The viewer's checks on every request, as middleware, in the order they run: the Host header
 * (a loopback viewer answers only to loopback names, so a rebound name cannot read it), a request
 * target that is a path, the access token beyond loopback, percent-encoding that decodes; and for
 * state changes a bounded body, the page's token and this origin.
 */
import { timingSafeEqual } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { every } from 'hono/combine';
import { secureHeaders } from 'hono/secure-headers';
import { isLoopback, originHost, parseHost } from './host-header.js';

/** What a viewer's handlers find on the context: the raw request, its target, its fields. */
export type ViewerEnv = {
  Bindings: HttpBindings;
  Variables: {
    /** The request target as sent, read without trusting it (only the path and query). */
    target: URL;
    /** A state change's fields: JSON, or an HTML form's urlencoded fields. */
    fields: Record<string, unknown>;
  };
};

/** A request the viewer refuses, with the status and the one-line reason it sends back. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Compares secrets in constant time. */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Headers on every answer: what the pages may load, and that nothing is cached or framed. */
export function securityHeaders(): MiddlewareHandler<ViewerEnv> {
  const headers = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    // Not no-referrer: with it, browsers send `Origin: null` on form posts and the origin check fails.
    referrerPolicy: 'same-origin',
    xFrameOptions: 'DENY',
    // Plain HTTP on a local port: a promise of HTTPS would be wrong.
    strictTransportSecurity: false,
  });
  return async (c, next) => {
    await headers(c, async () => {
      await next();
      c.res.headers.set('cache-control', 'no-store');
    });
  };
}

/** A loopback viewer answers only to its own names; beyond loopback the token decides, whatever the Host. */
export function hostGuard(loopbackOnly: boolean): MiddlewareHandler<ViewerEnv> {
  return async (c, next) => {
    const given = c.env.incoming.headers.host;
    const host = given === undefined ? null : parseHost(given);
    if (host === null) {
      if (!(given === undefined && !loopbackOnly)) {
        throw new HttpError(400, 'the Host header must be a host name or address, optionally with a port');
      }
    } else if (loopbackOnly && !isLoopback(host.hostname)) {
      // Another site cannot rebind a name of its own to this server.
      throw new HttpError(421, `this viewer answers to localhost and 127.0.0.1, not to "${host.hostname}"`);
    }
    await next();
  };
}

/** The request target, read as a path and query; anything else is the client's error. */
export function targetGuard(): MiddlewareHandler<ViewerEnv> {
  return async (c, next) => {
    try {
      // Only the path and query are read from it; the base is never shown.
      c.set('target', new URL(c.env.incoming.url ?? '/', 'http://viewer.invalid'));
    } catch {
      throw new HttpError(400, 'the request target is not a path');
    }
    await next();
  };
}

/** A cookie value; one with broken percent-encoding is kept as sent (it then matches nothing). */
function decodeCookie(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A cookie the request carries, by name. */
export function cookie(c: Context<ViewerEnv>, name: string): string | undefined {
  for (const part of (c.req.header('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return decodeCookie(part.slice(at + 1).trim());
  }
  return undefined;
}

/**
 * Beyond loopback, every request needs the access token: a cookie once it was given in `?access=`
 * (then the address is cleaned of it), or a bearer token.
 */
export function accessGuard(token: string | undefined): MiddlewareHandler<ViewerEnv> {
  return async (c, next) => {
    if (!token) return next();
    const target = c.get('target');
    const given = target.searchParams.get('access');
    if (given !== null && sameSecret(given, token)) {
      target.searchParams.delete('access');
      c.header('set-cookie', `agora_access=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`);
      // One leading slash: `//name/` would send the browser to another site.
      return c.redirect(`/${target.pathname.replace(/^\/+/, '')}${target.search}`, 303);
    }
    const bearer = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    if (sameSecret(cookie(c, 'agora_access'), token) || sameSecret(bearer, token)) return next();
    throw new HttpError(401, 'this viewer needs its access token: open it with ?access=TOKEN');
  };
}

/** Broken percent-encoding in the path is the client's error, not the server's. */
export function pathGuard(): MiddlewareHandler<ViewerEnv> {
  return async (c, next) => {
    const { pathname } = c.get('target');
    try {
      for (const part of pathname.split('/')) decodeURIComponent(part);
    } catch {
      throw new HttpError(400, `the path ${pathname} is not valid percent-encoding`);
    }
    await next();
  };
}

const BODY_LIMIT = 64 * 1024;

/** A state change: a body of at most 64 KB, read as JSON or form fields; the page's token; this origin. */
export function stateChangeGuard(csrf: string, loopbackOnly: boolean): MiddlewareHandler<ViewerEnv> {
  return every(
    async (c: Context<ViewerEnv>, next: Next) => {
      c.set('fields', await readFields(c));
      await next();
    },
    sameOriginGuard(csrf, loopbackOnly),
  );
}

const TOO_LARGE = 'the request body is larger than 64 KB';

/**
 * The body as text, at most 64 KB, whether it comes with a Content-Length or chunked (without
 * one, as many HTTP clients send it): read from the request's own stream, counted as it comes,
 * and refused (413) once past the limit.
 */
async function readBody(c: Context<ViewerEnv>): Promise<string> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > BODY_LIMIT) throw new HttpError(413, TOO_LARGE);
  const body = c.req.raw.body;
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > BODY_LIMIT) {
        await reader.cancel().catch(() => undefined);
        throw new HttpError(413, TOO_LARGE);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, 'the request body could not be read to its end (the connection broke off)');
  }
  const text = new TextDecoder('utf-8', { fatal: true });
  try {
    return text.decode(Buffer.concat(chunks));
  } catch {
    throw new HttpError(400, 'the request body is not UTF-8 text');
  }
}

async function readFields(c: Context<ViewerEnv>): Promise<Record<string, unknown>> {
  const text = await readBody(c);
  if (text.trim() === '') return {};
  if ((c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded')) {
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

/** State changes need the page's token and, when the browser says where it comes from, this origin. */
function sameOriginGuard(csrf: string, loopbackOnly: boolean): MiddlewareHandler<ViewerEnv> {
  return async (c, next) => {
    const given = c.req.header('x-agora-token') ?? c.get('fields').token;
    if (!sameSecret(typeof given === 'string' ? given : undefined, csrf)) {
      throw new HttpError(403, 'missing or wrong page token: reload the page and try again');
    }
    const origin = c.req.header('origin');
    if (origin) {
      const from = originHost(origin);
      const host = c.env.incoming.headers.host ?? '';
      const sameAsHost = origin.toLowerCase() === `http://${host}`.toLowerCase();
      if (from === null || !sameAsHost || (loopbackOnly && !isLoopback(from.hostname))) {
        throw new HttpError(403, `requests from ${origin} are not accepted`);
      }
    }
    await next();
  };
}
