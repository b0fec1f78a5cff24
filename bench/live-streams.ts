/**
 * How long the viewer takes to serve a run's page while 200 live streams (server-sent events) are
 * open: on a finished run (200 streams asked for at the moment the page is, each replaying the run),
 * and on a live run (a knockout waiting for the person at the podium, 200 streams held open). The
 * streams come from ten client addresses (127.0.0.2 to .11), twenty each, within the bound per
 * address. Debates run in worker processes against the built-in simulator, as `agora serve --demo`.
 *
 * Usage: npm run bench:streams [-- STREAMS [ROUNDS]]   (default 200 streams, 2-round knockouts; about a minute)
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { type ClientRequest, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Table from 'cli-table3';
import pino from 'pino';
import { startMockOllama } from '../src/mock-ollama/index.js';
import { startViewer } from '../src/web/server.js';
import { processLauncher } from '../src/web/workers.js';

const STREAMS = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.argv[3] ?? 2);
const root = path.resolve(import.meta.dirname, '..');
const outDir = mkdtempSync(path.join(tmpdir(), 'agora-bench-streams-'));
const mock = await startMockOllama({
  models: ['llama3', 'mistral'],
  profile: 'instant',
  speed: 0,
  script: [],
});
const web = await startViewer({
  cwd: root,
  scenariosDir: path.join(root, 'scenarios'),
  outDir,
  ollamaHost: mock.url,
  port: 0,
  launcher: processLauncher({ cwd: root, env: { ...process.env, NO_COLOR: '1' } }),
  logger: pino({ enabled: false }),
});
const opened: ClientRequest[] = [];

async function api(route: string, body?: unknown, cookie = '') {
  const page = await (await fetch(`${web.url}/`)).text();
  const token = /name="agora-token" content="([^"]+)"/.exec(page)?.[1] ?? '';
  return fetch(`${web.url}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', 'x-agora-token': token, cookie },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 200));
}

/** Opens a stream; settles when its first view arrived or the server ended it. */
function openStream(runId: string, localAddress: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port: web.port,
      path: `/api/runs/${encodeURIComponent(runId)}/stream`,
      localAddress,
    });
    opened.push(req);
    req.on('error', reject);
    req.on('response', (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (chunk.includes('event: view')) resolve();
      });
      response.on('end', () => resolve());
    });
    req.end();
  });
}

async function pageMs(runId: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${web.url}/runs/${encodeURIComponent(runId)}`);
  await response.text();
  return performance.now() - started;
}

const addresses = Array.from({ length: STREAMS }, (_, index) => `127.0.0.${2 + (index % 10)}`);
const rows: string[][] = [];
try {
  const finished = (await (
    await api('/api/runs', { format: 'knockout', topic: 'Finished streams', rounds: ROUNDS })
  ).json()) as { runId: string };
  await until(async () => {
    const run = (await (await api(`/api/runs/${finished.runId}`)).json()) as {
      events?: Array<{ type: string }>;
    };
    return run.events?.at(-1)?.type === 'run-end';
  });
  const seated = await api('/api/runs', {
    format: 'knockout',
    topic: 'Live streams',
    rounds: ROUNDS,
    human: 'x',
  });
  const live = (await seated.json()) as { runId: string };
  const cookie = (seated.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  await until(async () => {
    const podium = (await (await api(`/api/runs/${live.runId}/podium`, undefined, cookie)).json()) as {
      waiting: boolean;
    };
    return podium.waiting;
  });

  rows.push(['no streams open', `${(await pageMs(finished.runId)).toFixed(0)} ms`]);
  // Finished: the streams are asked for together with the page, each replaying the run.
  const streams = addresses.map((address) => openStream(finished.runId, address));
  const finishedPage = await pageMs(finished.runId);
  await Promise.all(streams);
  rows.push([`${STREAMS} streams asked for on a finished run`, `${finishedPage.toFixed(0)} ms`]);
  // Live: the streams are open and held while the page loads.
  await Promise.all(addresses.map((address) => openStream(live.runId, address)));
  const times = [];
  for (let trial = 0; trial < 5; trial += 1) times.push(await pageMs(live.runId));
  times.sort((a, b) => a - b);
  rows.push([
    `${STREAMS} streams open on a live run (5 loads)`,
    `median ${times[2]?.toFixed(0)} ms, slowest ${times[4]?.toFixed(0)} ms`,
  ]);
  await api(`/api/runs/${live.runId}/stop`, {});
  const table = new Table({ head: ['Run page', 'Served in'] });
  table.push(...rows);
  process.stdout.write(`${table.toString()}\n`);
} finally {
  for (const each of opened) each.destroy();
  await web.close();
  await mock.close();
  rmSync(outDir, { recursive: true, force: true });
}
