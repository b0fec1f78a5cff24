/**
 * `agora serve`: the live web viewer, on hono. Pages and fragments are rendered here from the run
 * logs; a page follows its run through server-sent events; debates started, stopped or resumed from
 * the browser run in worker processes. Binds to loopback unless told otherwise, and then needs a
 * token. Every request passes the guards in `request-guards.ts` before it reaches a route.
 */

import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import { AgoraError } from '../core/errors.js';
import { apiRoutes } from './api-routes.js';
import { arenaRoutes } from './arena-routes.js';
import { readWebAsset } from './assets.js';
import { isLoopback } from './host-header.js';
import { pageRoutes } from './page-routes.js';
import { messagePage, page } from './pages.js';
import { podiumRoutes } from './podium-routes.js';
import {
  accessGuard,
  HttpError,
  hostGuard,
  pathGuard,
  securityHeaders,
  stateChangeGuard,
  targetGuard,
  type ViewerEnv,
} from './request-guards.js';
import { OpenStreams } from './run-stream.js';
import type { ViewerOptions, ViewerParts } from './viewer-options.js';
import { ViewerRuns } from './viewer-runs.js';

export type { ViewerOptions } from './viewer-options.js';

export interface Viewer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The viewer's routes behind its guards; an error becomes a page or a JSON error, whatever went wrong. */
export function viewerApp(parts: ViewerParts, open: OpenStreams, csrf: string, loopbackOnly: boolean) {
  const { logger } = parts.options;
  const app = new Hono<ViewerEnv>();
  app.use(securityHeaders(), hostGuard(loopbackOnly), targetGuard());
  app.use(accessGuard(loopbackOnly ? undefined : parts.options.accessToken), pathGuard());
  app.use(async (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'POST') throw new HttpError(405, `${method} is not supported here`);
    await next();
  });
  app.post('*', stateChangeGuard(csrf, loopbackOnly));
  app.route('/', arenaRoutes(parts));
  app.route('/', podiumRoutes(parts));
  app.route('/', pageRoutes(parts));
  app.route('/api', apiRoutes(parts, open));
  app.notFound((c) =>
    answerError(c, new HttpError(404, `nothing at ${c.get('target')?.pathname ?? c.req.path}`)),
  );
  app.onError((error, c) => {
    const status = error instanceof HttpError ? error.status : 500;
    if (status >= 500) logger.error({ err: error, url: c.req.url }, 'request failed');
    return answerError(c, error);
  });

  /** A failed request's answer: the HTML error page for a browser, JSON for a program. */
  const answerError = (c: Context<ViewerEnv>, error: unknown) => {
    const status = error instanceof HttpError ? error.status : 500;
    const message =
      error instanceof HttpError || error instanceof AgoraError
        ? error.message
        : `unexpected error: ${(error as Error)?.message ?? String(error)}`;
    const title = status === 404 ? 'Not found' : 'Something went wrong';
    const code = status as Parameters<typeof c.json>[1];
    if ((c.req.header('accept') ?? '').includes('text/html')) {
      return c.html(
        page(status === 404 ? 'Not found' : 'Error', messagePage(title, message), parts.pageOptions),
        code,
      );
    }
    return c.json({ error: message }, code);
  };
  return app;
}

export async function startViewer(options: ViewerOptions): Promise<Viewer> {
  const bind = options.bind ?? '127.0.0.1';
  // On loopback the Host is the guard; beyond it, the access token.
  const loopbackOnly = isLoopback(bind);
  if (!loopbackOnly && !options.accessToken) {
    throw new AgoraError(
      `serving on ${bind} makes the viewer reachable from other machines; give --token SECRET (or AGORA_TOKEN) so only people who have it get in`,
      { exitCode: 2 },
    );
  }
  const csrf = randomBytes(24).toString('base64url');
  const parts: ViewerParts = {
    options,
    runs: new ViewerRuns(options.outDir),
    pageOptions: { csrf },
    // The demo's notice belongs where simulated text is made or shown, not on real runs.
    formOptions: { csrf, banner: options.simulator?.banner },
    assets: {
      'app.js': readWebAsset('app.js'),
      'podium.js': readWebAsset('podium.js'),
      'style.css': readWebAsset('style.css'),
    },
  };
  const open = new OpenStreams();
  const app = viewerApp(parts, open, csrf, loopbackOnly);
  const server = createAdaptorServer({
    fetch: app.fetch,
    hostname: bind,
    // Node's own Request and Response stay as they are for the rest of the process.
    overrideGlobalObjects: false,
  }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4747, bind, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = bind.includes(':') ? `[${bind}]` : bind;
  return {
    url: `http://${shown}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        open.endAll();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
