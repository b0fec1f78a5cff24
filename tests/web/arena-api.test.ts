/**
 * The blind arena over HTTP: a debate's page with the names hidden, one vote per debate per browser
 * (its cookie), kept apart from the log, and the viewer's guards on the vote as on every change.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ARENA_FILE, ARENA_SEEN_FILE, castArenaVote } from '../../src/store/arena-votes.js';
import { runAgora, writeFiles } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { logOf, runEnd, scenarioOf, turn } from '../helpers/run-events.js';
import { writeRun } from '../helpers/run-folders.js';
import { testScenario } from '../helpers/scenario.js';
import { pageToken, rawRequest, useViewers } from '../helpers/viewer.js';

const mock = useMockServers();
const viewer = useViewers();
const NAMES = ['Xavier', 'Yara', 'Yusuf', 'Yvonne', 'Yannick', 'llama3', 'mistral'];

async function finishedKnockout(url: string) {
  const dir = writeFiles({ 'scenario.yaml': stringify(testScenario({ rounds: 1 })) });
  const out = path.join(dir, 'runs');
  const run = await runAgora([
    'run',
    path.join(dir, 'scenario.yaml'),
    '--run-id',
    'voted',
    '--out',
    out,
    '--host',
    url,
    '--quiet',
  ]);
  expect(run.code, run.stderr).toBe(0);
  return out;
}

/** A browser of its own: the cookie the arena gives it, and the page's token. */
async function browserAt(base: string, runId: string) {
  const page = await fetch(`${base}/runs/${runId}?blind=1`);
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const body = await page.text();
  const token = /name="agora-token" content="([^"]+)"/.exec(body)?.[1] ?? '';
  const vote = (choice: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/runs/${runId}/arena-votes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agora-token': token, cookie, ...headers },
      body: JSON.stringify({ choice }),
    });
  const reload = async () => (await fetch(`${base}/runs/${runId}?blind=1`, { headers: { cookie } })).text();
  return { cookie, body, token, vote, reload };
}

describe('agora serve: the blind arena', () => {
  it('hides every name until this browser votes, takes one vote per browser, and then shows who was who', async () => {
    const server = await mock();
    const outDir = await finishedKnockout(server.url);
    const web = await viewer({ outDir, ollamaHost: server.url });
    const first = await browserAt(web.url, 'voted');
    expect(first.cookie).toMatch(/^agora_voter=[A-Za-z0-9_-]{24}$/);
    for (const name of NAMES) expect(first.body, name).not.toContain(name);
    expect(first.body).toContain('Speaker X');
    expect(first.body).toContain('0 votes cast on this debate so far.');

    const cast = await first.vote('X');
    expect(cast.status).toBe(201);
    const revealed = (await cast.json()) as {
      votes: number;
      sides: Array<{ key: string; speakers: unknown[] }>;
    };
    expect(revealed.votes).toBe(1);
    expect(revealed.sides[0]).toEqual({
      key: 'X',
      label: 'Position X (Car-free)',
      speakers: [{ name: 'Xavier', model: 'llama3' }],
    });
    // One vote per debate per browser: a second one is refused, whatever it says.
    const again = await first.vote('Y');
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toContain('voted on this debate already');
    const page = await first.reload();
    expect(page).toContain('You voted: <strong>Position X (Car-free)</strong>');
    expect(page).toContain('Xavier <code>llama3</code>');

    // Another browser starts blind again, and sees the count, not the votes.
    const second = await browserAt(web.url, 'voted');
    expect(second.cookie).not.toBe(first.cookie);
    expect(second.body).toContain('1 vote cast on this debate so far.');
    for (const name of NAMES) expect(second.body, name).not.toContain(name);
    expect((await second.vote('tie')).status).toBe(201);
    const stored = readFileSync(path.join(outDir, 'voted', ARENA_FILE), 'utf8')
      .trim()
      .split('\n');
    expect(stored.map((line) => JSON.parse(line).choice)).toEqual(['X', 'tie']);
    // Votes never enter the run's log.
    expect(readFileSync(path.join(outDir, 'voted', 'events.jsonl'), 'utf8')).not.toContain('arena');

    const arena = await (await fetch(`${web.url}/arena`, { headers: { cookie: first.cookie } })).text();
    expect(arena).toMatch(
      /href="\/runs\/voted\?blind=1">Should cities ban cars from their centres\?<\/a>.*<td data-label="Votes">2<\/td><td data-label="Your vote">cast<\/td>/s,
    );
    for (const name of NAMES) expect(arena, name).not.toContain(name);
  }, 900_000);

  it('does not offer a degraded debate whose statements are all emergency placeholders', async () => {
    const server = await mock();
    const outDir = await finishedKnockout(server.url);
    const placeholder = (round: number, agent: string, position: 'X' | 'Y') => ({
      ...turn(round, agent, position, `[${agent} could not speak: the model failed]`),
      degraded: true,
    });
    writeRun(
      outDir,
      'placeholders',
      logOf(await scenarioOf('knockout'), [
        placeholder(1, 'Xavier', 'X'),
        placeholder(1, 'Yara', 'Y'),
        runEnd('degraded'),
      ]),
    );
    const web = await viewer({ outDir, ollamaHost: server.url });
    const arena = await (await fetch(`${web.url}/arena`)).text();
    expect(arena).toContain('href="/runs/voted?blind=1"');
    expect(arena).not.toContain('placeholders');
    const browser = await browserAt(web.url, 'placeholders');
    expect((await browser.vote('X')).status).toBe(409);
  }, 900_000);

  it('refuses a vote without the arena cookie, with another choice, on an unfinished debate, and past the guards', async () => {
    const server = await mock();
    const outDir = await finishedKnockout(server.url);
    writeRun(
      outDir,
      'unfinished',
      logOf(await scenarioOf('knockout'), [turn(1, 'Xavier', 'X', 'Still going.')]),
    );
    const web = await viewer({ outDir, ollamaHost: server.url });
    const browser = await browserAt(web.url, 'voted');
    expect((await browser.vote('Z')).status).toBe(400);
    expect((await browser.vote('X', { cookie: '' })).status).toBe(400);
    expect((await browser.vote('X', { cookie: 'agora_voter=%E0%A4%A' })).status).toBe(400);
    expect((await browser.vote('X', { 'x-agora-token': 'wrong' })).status).toBe(403);
    expect((await browser.vote('X', { origin: 'http://evil.example' })).status).toBe(403);
    const unfinished = await browserAt(web.url, 'unfinished');
    expect(unfinished.body).toContain('has not run to its end');
    expect((await unfinished.vote('X')).status).toBe(409);

    const token = await pageToken(web);
    const raw = (host: string, body = JSON.stringify({ choice: 'X' })) =>
      rawRequest(web.port, {
        method: 'POST',
        target: '/api/runs/voted/arena-votes',
        host,
        headers: { 'content-type': 'application/json', 'x-agora-token': token, cookie: browser.cookie },
        body,
      });
    expect((await raw(`127.evil.com:${web.port}`)).status).toBe(421);
    expect(
      (await raw(`127.0.0.1:${web.port}`, JSON.stringify({ choice: 'X', pad: 'x'.repeat(70_000) }))).status,
    ).toBe(413);
    expect(existsSync(path.join(outDir, 'voted', ARENA_FILE))).toBe(false);
    expect((await raw(`127.0.0.1:${web.port}`)).status).toBe(201);
  }, 900_000);

  it('takes the vote as a plain HTML form too, then shows the page with the names', async () => {
    const server = await mock();
    const outDir = await finishedKnockout(server.url);
    const web = await viewer({ outDir, ollamaHost: server.url });
    const browser = await browserAt(web.url, 'voted');
    const posted = await fetch(`${web.url}/runs/voted/arena-votes`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: browser.cookie,
        origin: web.url,
      },
      body: new URLSearchParams({ token: browser.token, choice: 'Y' }).toString(),
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/runs/voted?blind=1');
    expect(await browser.reload()).toContain('You voted: <strong>Position Y (Car-friendly)</strong>');
  }, 900_000);

  it("refuses a blind vote from a browser that saw the debate's names first (page, export or data), and ranks without it", async () => {
    const server = await mock();
    const outDir = await finishedKnockout(server.url);
    const web = await viewer({ outDir, ollamaHost: server.url });
    const seenFile = path.join(outDir, 'voted', ARENA_SEEN_FILE);

    // A browser that voted first keeps its vote when it reads the names afterwards.
    const early = await browserAt(web.url, 'voted');
    expect((await early.vote('X')).status).toBe(201);
    const named = await fetch(`${web.url}/runs/voted`, { headers: { cookie: early.cookie } });
    expect(await named.text()).toContain('You voted');

    // The data without a voter id notes nobody; the names page gives the browser an id and notes it.
    expect((await fetch(`${web.url}/api/runs/voted`)).status).toBe(200);
    expect(existsSync(seenFile)).toBe(false);
    const page = await fetch(`${web.url}/runs/voted`);
    const pageCookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(page.headers.get('set-cookie')).toContain('SameSite=Lax');
    expect(await page.text()).toContain("has seen this debate's names");
    // The export, and the data fetched by a browser that has an id, do the same.
    const exported = await fetch(`${web.url}/runs/voted/export`);
    const exportCookie = (exported.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const arena = await fetch(`${web.url}/arena`);
    const dataCookie = (arena.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect((await fetch(`${web.url}/api/runs/voted`, { headers: { cookie: dataCookie } })).status).toBe(200);
    expect(
      readFileSync(seenFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).via),
    ).toEqual(['page', 'export', 'data']);

    for (const cookie of [pageCookie, exportCookie, dataCookie]) {
      const blind = await (await fetch(`${web.url}/runs/voted?blind=1`, { headers: { cookie } })).text();
      for (const name of NAMES) expect(blind, name).not.toContain(name);
      expect(blind).not.toContain('data-arena-vote');
      expect(blind).toContain('would not be blind');
      const token = /name="agora-token" content="([^"]+)"/.exec(blind)?.[1] ?? '';
      const refused = await fetch(`${web.url}/api/runs/voted/arena-votes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-agora-token': token, cookie },
        body: JSON.stringify({ choice: 'Y' }),
      });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { error: string }).error).toContain('would not be blind');
      // Nothing left for this browser: the arena says so instead of sending it back.
      const next = await fetch(`${web.url}/arena/next`, { headers: { cookie }, redirect: 'manual' });
      expect(next.status).toBe(200);
      expect(await next.text()).toContain('id="arena-exhausted"');
    }
    expect(
      readFileSync(path.join(outDir, 'voted', ARENA_FILE), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(1);

    // A new browser is sent to the debate it has not seen.
    const next = await fetch(`${web.url}/arena/next`, { redirect: 'manual' });
    expect(next.status).toBe(303);
    expect(next.headers.get('location')).toBe('/runs/voted?blind=1');

    // A vote that got past the refusal (written after its browser's note) counts nowhere.
    const late = dataCookie.slice('agora_voter='.length);
    castArenaVote(path.join(outDir, 'voted'), { choice: 'Y', voter: late });
    const tables = (await (await fetch(`${web.url}/api/leaderboard`)).json()) as Array<{
      title: string;
      rows: unknown[][];
      note?: string;
    }>;
    const people = tables.find((table) => table.title.startsWith('Ranking of models by people'));
    expect(people?.note).toMatch(/^From 1 blind vote on 1 debate/);
    expect(people?.note).toContain('1 vote from browsers that had seen');
    expect(people?.rows.map((row) => [row[0], row[3], row[4]])).toEqual([
      ['llama3', 1, 0],
      ['mistral', 0, 1],
    ]);
    // The judges against the people: only the one blind vote makes the people's verdict.
    const calibration = tables.find((table) => table.title.startsWith('Judges against people'));
    expect(calibration?.note).toMatch(
      /^1 debate with both people's blind votes and judges' verdicts; 1 vote from browsers that had seen the names first, kept apart and not counted/,
    );
    expect(calibration?.rows.map((row) => row[2])).toEqual([1]);
    const compared = tables.find((table) =>
      table.title.startsWith('Rankings by people and by judges compared'),
    );
    expect(compared?.title).toContain('Kendall tau-b');
  }, 900_000);
});
