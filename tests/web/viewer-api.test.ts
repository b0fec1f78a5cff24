/**
 * The viewer's HTTP API without a browser: start, follow, stop, resume and vote over real HTTP,
 * with debates in real worker processes against the mock Ollama.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { lockOwner } from '../../src/store/run-lock.js';
import { startViewer } from '../../src/web/server.js';
import { tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { readEvents } from '../helpers/transcripts.js';
import { pageToken, postJson, readStream, runEnded, startRun, useViewers } from '../helpers/viewer.js';

const mock = useMockServers();
const viewer = useViewers();
/** Polls `condition` until it holds (a process letting go of a file: nothing to subscribe to). */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

const MARKUP = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">';

describe('agora serve: the HTTP API', () => {
  it('starts a debate in a worker, replaces an invalid optional parameter with a notice, and streams every event', async () => {
    const server = await mock({ speed: 0.01 });
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const token = await pageToken(web);
    const response = await postJson(
      web,
      '/api/runs',
      { format: 'knockout', topic: 'Should cities ban cars?', rounds: 'two', seed: '-5' },
      token,
    );
    expect(response.status).toBe(202);
    const started = (await response.json()) as { runId: string; topic: string; notices: string[] };
    expect(started.topic).toBe('Should cities ban cars?');
    expect(started.notices).toEqual([
      'Rounds "two" is not a whole number from 1 to 50: the default is used.',
    ]);

    const messages = await readStream(web, started.runId, runEnded, { timeoutMs: 600_000 });
    const runEvents = messages.filter((message) => message.event === 'run-event');
    const log = readEvents(path.join(outDir, started.runId));
    expect(runEvents.map((message) => message.id)).toEqual(log.map((event) => event.seq));
    expect(runEvents.map((message) => message.data.type)).toEqual(log.map((event) => event.type));
    // The default (6 rounds) was used, and the seed, negative as the command line allows, was kept.
    expect(log.filter((event) => event.type === 'round-end')).toHaveLength(6);
    expect((log[0] as unknown as { scenario: { seed: number } }).scenario.seed).toBe(-5);

    // Reconnecting after event 10 sends only what came after it.
    const again = await readStream(web, started.runId, runEnded, { lastEventId: 10 });
    const ids = again.filter((message) => message.event === 'run-event').map((message) => message.id);
    expect(ids[0]).toBe(11);
    expect(ids).toHaveLength(log.length - 11); // sequence numbers start at 0
    expect(again.find((message) => message.event === 'view')?.data.status).toBe('completed');
  }, 900_000);

  it('shows a model answer with markup as text in the stream, the run page and the JSON', async () => {
    const server = await mock({
      speed: 0.01,
      // Position X speaks first, on llama3; the judges are on mistral.
      script: [{ match: { model: 'llama3' }, reply: `I say ${MARKUP} and mean it.`, times: 1 }],
    });
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const token = await pageToken(web);
    const response = await postJson(
      web,
      '/api/runs',
      { format: 'knockout', topic: 'Markup', rounds: 1 },
      token,
    );
    const { runId } = (await response.json()) as { runId: string };
    const messages = await readStream(web, runId, runEnded, { timeoutMs: 600_000 });
    const fragments = messages
      .filter((message) => message.event === 'run-event')
      .map((message) => String(message.data.html))
      .join('\n');
    expect(readFileSync(path.join(outDir, runId, 'events.jsonl'), 'utf8')).toContain('<script>window.pwned');
    expect(fragments).toContain('&lt;script&gt;window.pwned = 1&lt;/script&gt;&lt;img src=x onerror=&quot;');
    expect(fragments).not.toMatch(/<script|<img/i);
    const pageHtml = await (await fetch(`${web.url}/runs/${runId}`)).text();
    expect(pageHtml).toContain('&lt;script&gt;window.pwned');
    expect(pageHtml.match(/<script/g)).toHaveLength(1); // only the page's own app.js
    expect(pageHtml).not.toContain('<img');
    expect((await fetch(`${web.url}/runs/${runId}`)).headers.get('content-security-policy')).toContain(
      "script-src 'self'",
    );
  }, 900_000);

  it('stops a running debate and resumes it to the end', async () => {
    const server = await mock({ speed: 0.15 });
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const token = await pageToken(web);
    const runId = await startRun(web, token, { format: 'knockout', topic: 'Stop me', rounds: 3 });
    const first = await readStream(web, runId, (messages) =>
      messages.some((message) => message.event === 'run-event' && message.data.type === 'turn-end'),
    );
    // Before the first statement was complete, its tokens streamed in as live notices.
    const live = first.filter((message) => message.event === 'live');
    expect(live[0]?.data).toMatchObject({ type: 'turn-start', agent: 'Xen', round: 1 });
    expect(live.filter((message) => message.data.type === 'turn-delta').length).toBeGreaterThan(10);
    const stop = await postJson(web, `/api/runs/${runId}/stop`, {}, token);
    expect(stop.status).toBe(202);
    const stopped = await readStream(web, runId, (messages) =>
      messages.some(
        (message) => message.event === 'view' && message.data.status === 'stopped' && !message.data.live,
      ),
    );
    expect(stopped.filter((message) => message.event === 'run-event').at(-1)?.data.type).toBe('run-end');
    // The stopped process lets go of its lock a moment after its last event: a process still holding
    // the lock of a log that has ended is played here by this one, once the worker has let go.
    const runDir = path.join(outDir, runId);
    await waitFor(() => lockOwner(runDir) === null);
    writeFileSync(path.join(runDir, 'run.lock'), `${process.pid}\n`);
    const stopAgain = await postJson(web, `/api/runs/${runId}/stop`, {}, token);
    expect(stopAgain.status).toBe(409);
    expect(await stopAgain.text()).toMatch(/has ended/);

    // Resuming waits for that lock to go, then starts.
    const resuming = postJson(web, `/api/runs/${runId}/resume`, {}, token);
    rmSync(path.join(runDir, 'run.lock'));
    const resume = await resuming;
    expect(resume.status).toBe(202);
    await readStream(
      web,
      runId,
      (messages) =>
        messages.some((message) => message.event === 'view' && message.data.status === 'completed'),
      { timeoutMs: 600_000 },
    );
    const log = readEvents(path.join(outDir, runId));
    expect(log.map((event) => event.type)).toContain('run-resume');
    expect(log.filter((event) => event.type === 'round-end')).toHaveLength(3);
    expect((await postJson(web, `/api/runs/${runId}/resume`, {}, token)).status).toBe(409);
  }, 900_000);

  it('records spectator votes apart from the run log, one per voter and round, and shows them beside the judges', async () => {
    const server = await mock();
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const token = await pageToken(web);
    const runId = await startRun(web, token, { format: 'knockout', topic: 'Votes', rounds: 2 });
    await readStream(web, runId, runEnded, { timeoutMs: 600_000 });
    const logBefore = readFileSync(path.join(outDir, runId, 'events.jsonl'), 'utf8');
    const vote = (body: unknown) => postJson(web, `/api/runs/${runId}/votes`, body, token);
    expect((await vote({ round: 1, choice: 'rotate', voter: 'voter-aaaa' })).status).toBe(201);
    expect((await vote({ round: 1, choice: 'continue', voter: 'voter-aaaa' })).status).toBe(201);
    expect((await vote({ round: 1, choice: 'continue', voter: 'voter-bbbb' })).status).toBe(201);
    expect((await vote({ round: 2, choice: 'rotate', voter: 'voter-bbbb' })).status).toBe(201);
    const refused = await vote({ round: 1, choice: 'abstain', voter: 'voter-aaaa' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe(
      'choice must be one of continue, rotate',
    );
    expect((await vote({ round: 9, choice: 'rotate', voter: 'voter-aaaa' })).status).toBe(400);
    expect((await vote({ round: 1, choice: 'rotate', voter: '../x' })).status).toBe(400);

    expect(readFileSync(path.join(outDir, runId, 'events.jsonl'), 'utf8')).toBe(logBefore);
    const stored = readFileSync(path.join(outDir, runId, 'spectators.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(stored).toHaveLength(4);
    const view = (await readStream(web, runId, (messages) => messages.some((m) => m.event === 'view'))).find(
      (message) => message.event === 'view',
    );
    // Round 1: voter-aaaa changed their mind, so two continue votes and no rotate vote.
    expect(String(view?.data.scoreboard)).toMatch(/<td>1<\/td>.*<td>2 continue<\/td><\/tr>/);
    expect(String(view?.data.scoreboard)).toMatch(/<td>2<\/td>.*<td>1 rotate<\/td><\/tr>/);
  }, 900_000);

  it('lists runs with their status and filters, and shows the leaderboard tables', async () => {
    const server = await mock();
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const token = await pageToken(web);
    const runId = await startRun(web, token, { format: 'knockout', topic: 'Listed <b>here</b>', rounds: 1 });
    await readStream(web, runId, (messages) =>
      messages.some((message) => message.event === 'view' && message.data.status === 'completed'),
    );
    const listed = await (await fetch(`${web.url}/?status=completed&topic=listed`)).text();
    expect(listed).toContain(`href="/runs/${runId}">Listed &lt;b&gt;here&lt;/b&gt;</a>`);
    expect(listed).toContain(`<code class="run-id">${runId}</code>`);
    expect(await (await fetch(`${web.url}/fragments/runs?format=duel`)).text()).toContain('No runs yet.');
    const api = (await (await fetch(`${web.url}/api/runs`)).json()) as Array<{
      runId: string;
      status: string;
    }>;
    expect(api).toMatchObject([{ runId, status: 'completed' }]);
    // The run's process indexes it just after its last event: the leaderboard may lag a moment.
    const leaderboard = async () =>
      (await (await fetch(`${web.url}/api/leaderboard`)).json()) as Array<{
        title: string;
        rows: unknown[][];
      }>;
    // Until its process lets go of the run's lock, that is up to it, however long load makes it take.
    await expect
      .poll(async () => (await leaderboard())[0]?.rows.length ?? 0, { timeout: 600_000, interval: 100 })
      .toBeGreaterThan(0);
    const tables = await leaderboard();
    expect(tables.length).toBeGreaterThanOrEqual(3);
    const board = await (await fetch(`${web.url}/leaderboard`)).text();
    for (const table of tables) expect(board).toContain(`<h2>${table.title}</h2>`);
  }, 900_000);

  it('refuses state changes without the page token or from another origin, bad run ids and other host names', async () => {
    const server = await mock();
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const token = await pageToken(web);
    const body = { format: 'knockout', topic: 'No token' };
    expect((await postJson(web, '/api/runs', body, null)).status).toBe(403);
    expect((await postJson(web, '/api/runs', body, 'wrong')).status).toBe(403);
    const foreign = await fetch(`${web.url}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agora-token': token, origin: 'http://evil.example' },
      body: JSON.stringify(body),
    });
    expect(foreign.status).toBe(403);
    expect((await fetch(`${web.url}/runs/..%2F..%2Fetc`)).status).toBe(400);
    expect((await fetch(`${web.url}/api/runs/..%2Fsecrets/stream`)).status).toBe(400);
    expect((await fetch(`${web.url}/api/runs/no-such-run`)).status).toBe(404);
    // fetch will not send another Host header; node:http will, as a rebinding attack's browser would.
    const rebound = await new Promise<number>((resolve, reject) => {
      get(
        { host: '127.0.0.1', port: web.port, path: '/', headers: { host: `evil.example:${web.port}` } },
        (reply) => {
          reply.resume();
          resolve(reply.statusCode ?? 0);
        },
      ).on('error', reject);
    });
    expect(rebound).toBe(421);
    const empty = await postJson(web, '/api/runs', { format: 'knockout', topic: '   ' }, token);
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: string }).error).toBe(
      'the topic must not be empty: write the motion to debate',
    );
    const pathInName = await postJson(
      web,
      '/api/runs',
      { format: 'knockout', scenario: '../package.json' },
      token,
    );
    expect(pathInName.status).toBe(400);
    expect(existsSync(path.join(outDir, '.serve'))).toBe(false);
  });

  it('answers a form with the error on the page, or with a redirect to the new run', async () => {
    const server = await mock();
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const token = await pageToken(web);
    const form = (fields: Record<string, string>) =>
      fetch(`${web.url}/runs`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, ...fields }).toString(),
      });
    const bad = await form({ format: 'knockout', topic: '' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('the topic must not be empty');
    const good = await form({ format: 'duel', topic: 'Tabs or spaces?', rounds: '2' });
    expect(good.status).toBe(303);
    const location = good.headers.get('location') ?? '';
    expect(location).toMatch(/^\/runs\/\d{8}-\d{6}-tabs-or-spaces-s\d+$/);
    const runId = decodeURIComponent(location.slice('/runs/'.length));
    await readStream(web, runId, runEnded, { timeoutMs: 600_000 });
    const page = await (await fetch(`${web.url}${location}`)).text();
    // Once the debate has ended, the page no longer greets it as just accepted.
    expect(page).toContain('Tabs or spaces?');
    expect(page).not.toContain('Topic accepted');
  }, 900_000);

  it('tells the page when the worker process ends before the debate starts, with its last output', async () => {
    const server = await mock();
    const outDir = tempDir();
    // A worker that fails at once, as \`agora run\` would on a scenario it cannot read.
    const failing = {
      launch: (_args: string[], logFile: string) => {
        const output = openSync(logFile, 'a');
        const child = spawn(
          process.execPath,
          ['-e', 'console.error("agora run: could not start"); process.exit(3)'],
          {
            stdio: ['ignore', output, output],
          },
        );
        closeSync(output);
        return child.pid ?? -1;
      },
    };
    const web = await viewer({ outDir, ollamaHost: server.url, launcher: failing });
    const token = await pageToken(web);
    const runId = await startRun(web, token, { format: 'knockout', topic: 'Never starts' });
    const messages = await readStream(web, runId, (received) =>
      received.some((message) => message.event === 'worker-failed'),
    );
    expect(messages.find((message) => message.event === 'worker-failed')?.data.message).toBe(
      'agora run: could not start',
    );
  });

  it('answers a browser asking for an unknown run with the HTML not-found page', async () => {
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: 'http://127.0.0.1:9' });
    const missing = await fetch(`${web.url}/runs/20260101-000000-nobody-s1`, {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('text/html');
    const body = await missing.text();
    expect(body).toContain('<title>Not found · Agora</title>');
    expect(body).toContain('<h1>Not found</h1>');
    expect(body).toContain('there is no run 20260101-000000-nobody-s1');
    // A program asking for JSON still gets JSON.
    const api = await fetch(`${web.url}/api/runs/20260101-000000-nobody-s1`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: `there is no run 20260101-000000-nobody-s1 in ${outDir}` });
  });

  it('starts a scenario that sends a model to its own server: checked there, and the debate goes there', async () => {
    // Ollama has only llama3; mistral lives on an OpenAI-compatible server, as the scenario says.
    const ollama = await mock({ speed: 0.01, models: ['llama3'] });
    const other = await mock({ speed: 0.01, models: ['mistral'] });
    const scenariosDir = tempDir();
    const scenario = testScenario({ rounds: 1, yCount: 3 });
    scenario.providers = { local: { type: 'openai', base_url: `${other.url}/v1`, models: ['mistral'] } };
    writeFileSync(path.join(scenariosDir, 'mixed.yaml'), stringify(scenario));
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: ollama.url, scenariosDir });
    const token = await pageToken(web);
    const runId = await startRun(web, token, { format: 'knockout', scenario: 'mixed.yaml' });
    const messages = await readStream(web, runId, runEnded, { timeoutMs: 600_000 });
    expect(messages.filter((message) => message.event === 'view').at(-1)?.data.status).toBe('completed');
    expect(ollama.requests.filter((request) => request.path === '/api/chat').length).toBeGreaterThan(0);
    expect(
      other.requests.filter((request) => request.path === '/v1/chat/completions').length,
    ).toBeGreaterThan(0);
    expect(ollama.requests.some((request) => (request.body as { model?: string })?.model === 'mistral')).toBe(
      false,
    );
  }, 900_000);

  it('says when Ollama is not there, without starting anything', async () => {
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: 'http://127.0.0.1:9' });
    const token = await pageToken(web);
    const response = await postJson(web, '/api/runs', { format: 'knockout', topic: 'Nobody home' }, token);
    expect(response.status).toBe(400);
    const error = ((await response.json()) as { error: string }).error;
    expect(error).toContain('`agora serve --demo` (or `npm run agora -- serve --demo`)');
    expect(error).not.toContain('npm run demo');
    expect(await (await fetch(`${web.url}/new`)).text()).toContain('Could not list the models of the Ollama');
  });

  it('needs a token to bind beyond loopback, and then asks every request for it', async () => {
    const outDir = tempDir();
    const options = {
      outDir,
      ollamaHost: 'http://127.0.0.1:9',
      cwd: outDir,
      scenariosDir: outDir,
      port: 0,
      launcher: { launch: () => -1 },
      logger: pino({ enabled: false }),
    };
    await expect(startViewer({ ...options, bind: '0.0.0.0' })).rejects.toThrow(/--token/);
    const web = await viewer({ ...options, bind: '0.0.0.0', accessToken: 'a-long-enough-secret' });
    const url = `http://127.0.0.1:${web.port}`;
    expect((await fetch(`${url}/`)).status).toBe(401);
    expect((await fetch(`${url}/?access=wrong`)).status).toBe(401);
    const granted = await fetch(`${url}/?access=a-long-enough-secret`, { redirect: 'manual' });
    expect(granted.status).toBe(303);
    const cookie = (granted.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toBe('agora_access=a-long-enough-secret');
    expect((await fetch(`${url}/`, { headers: { cookie } })).status).toBe(200);
    expect(
      (await fetch(`${url}/`, { headers: { authorization: 'Bearer a-long-enough-secret' } })).status,
    ).toBe(200);
  });
});
