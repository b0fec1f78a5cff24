/**
 * The blind arena in a real headless Chromium: people in two browsers vote on three debates whose
 * judges' votes the test scripts; the names are hidden before each vote and shown after it, a
 * second vote is refused, a browser that opened a debate's ordinary page first cannot vote blind on
 * it, and the leaderboard's people's ranking, judges-against-people figures and rank correlation are
 * the ones those votes make.
 */
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { proportionInterval } from '../../src/analytics/intervals.js';
import { chromiumPath, launchChromium, mustRunBrowserTests, screenshotPath } from '../helpers/browser.js';
import { runAgora, writeFiles } from '../helpers/cli.js';
import { voteRule } from '../helpers/judge-script.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { useViewers } from '../helpers/viewer.js';

const mock = useMockServers();
const viewer = useViewers();

/** Xavier (llama3) against Yara (mistral), judged by Yusuf (mistral), Yvonne and Yannick (qwen2.5). */
const SCENARIO = testScenario({
  rounds: 1,
  extra: {
    agents: [
      { name: 'Xavier', position: 'X', model: 'llama3', role: 'You argue for car-free city centres.' },
      { name: 'Yara', position: 'Y', model: 'mistral', role: 'You defend access by car.' },
      { name: 'Yusuf', position: 'Y', model: 'mistral', role: 'You defend access by car.' },
      { name: 'Yvonne', position: 'Y', model: 'qwen2.5', role: 'You defend access by car.' },
      { name: 'Yannick', position: 'Y', model: 'qwen2.5', role: 'You defend access by car.' },
    ],
  },
});
const NAMES = ['Xavier', 'Yara', 'Yusuf', 'Yvonne', 'Yannick', 'llama3', 'mistral', 'qwen'];

/** Each debate's judges: against Y ("rotate", a verdict for X) or for Y ("continue"). */
const DEBATES: Record<string, Record<string, 'rotate' | 'continue'>> = {
  d1: { Yusuf: 'rotate', Yvonne: 'rotate', Yannick: 'continue' },
  d2: { Yusuf: 'continue', Yvonne: 'rotate', Yannick: 'continue' },
  d3: { Yusuf: 'continue', Yvonne: 'continue', Yannick: 'continue' },
};

/** Who votes what: the first browser on all three, the second on d1 and d3 (d3's people are split: a tie). */
const VOTES: Array<{ browser: 0 | 1; run: string; choice: 'X' | 'Y' }> = [
  { browser: 0, run: 'd1', choice: 'X' },
  { browser: 1, run: 'd1', choice: 'X' },
  { browser: 0, run: 'd2', choice: 'Y' },
  { browser: 0, run: 'd3', choice: 'X' },
  { browser: 1, run: 'd3', choice: 'Y' },
];

async function tableRows(context: BrowserContext, url: string, title: string): Promise<string[][]> {
  const page = await context.newPage();
  await page.goto(url);
  const section = page.locator('section.panel', { has: page.locator('h2', { hasText: title }) });
  const rows: string[][] = [];
  for (const row of await section.locator('tbody tr').all())
    rows.push(await row.locator('td').allTextContents());
  await page.close();
  return rows;
}

describe.skipIf(!chromiumPath && !mustRunBrowserTests)('the blind arena in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('hides the names until a browser has voted, takes one vote per browser, and ranks and calibrates from the votes', async () => {
    const dir = writeFiles({ 'scenario.yaml': stringify(SCENARIO) });
    const out = path.join(dir, 'runs');
    for (const [runId, judges] of Object.entries(DEBATES)) {
      const server = await mock({
        script: Object.entries(judges).map(([judge, vote]) => voteRule({ round: 1, judge, vote })),
      });
      const run = await runAgora([
        'run',
        path.join(dir, 'scenario.yaml'),
        '--run-id',
        runId,
        '--out',
        out,
        '--host',
        server.url,
        '--quiet',
      ]);
      expect(run.code, run.stderr).toBe(0);
    }
    const web = await viewer({ outDir: out, ollamaHost: 'http://127.0.0.1:9' });
    const browsers = [
      await browser.newContext({ viewport: { width: 1920, height: 1000 } }),
      await browser.newContext({ viewport: { width: 390, height: 900 } }),
    ] as const;

    const cast = new Map<string, number>();
    for (const { browser: which, run, choice } of VOTES) {
      const context = browsers[which];
      const page = await context.newPage();
      await page.goto(`${web.url}/runs/${run}?blind=1`);
      // Before the vote: no name and no model anywhere in the page, its attributes and titles included.
      const before = await page.content();
      for (const name of NAMES) expect(before, `${name} on ${run} before the vote`).not.toContain(name);
      expect(await page.locator('#transcript article.statement').count()).toBe(2);
      expect(await page.textContent('#transcript')).toContain('Speaker X');
      expect(await page.textContent('#arena-vote .arena-count')).toBe(
        `${cast.get(run) ?? 0} vote${cast.get(run) === 1 ? '' : 's'} cast on this debate so far.`,
      );
      if (run === 'd1')
        await page.screenshot({ path: screenshotPath(`arena-blind-${which}.png`), fullPage: false });
      await page.click(`button[data-arena-vote="${choice}"]`);
      await page.waitForSelector('#arena .arena-mine');
      cast.set(run, (cast.get(run) ?? 0) + 1);
      // After it: who was who, on which model, and the judges' verdicts.
      const after = await page.textContent('#arena');
      expect(after).toContain(`You voted: Position ${choice}`);
      expect(after).toContain('Position X (Car-free): Xavier llama3');
      expect(after).toContain('Position Y (Car-friendly): Yara mistral');
      expect(after).toContain('Yvonne qwen2.5');
      expect(await page.locator('button[data-arena-vote]').count()).toBe(0);
      // The server keeps to one vote per debate per browser, whatever the page offers.
      const token = (await page.getAttribute('meta[name="agora-token"]', 'content')) ?? '';
      const again = await page.request.post(`${web.url}/api/runs/${run}/arena-votes`, {
        data: { choice: choice === 'X' ? 'Y' : 'X' },
        headers: { 'x-agora-token': token, origin: web.url },
      });
      expect(again.status()).toBe(409);
      if (run === 'd1')
        await page.screenshot({ path: screenshotPath(`arena-revealed-${which}.png`), fullPage: false });
      await page.close();
    }

    // A browser that opened a debate's ordinary page (names, models, verdicts) cannot vote blind on it.
    const peek = await browsers[1].newPage();
    await peek.goto(`${web.url}/runs/d2`);
    expect(await peek.textContent('#arena')).toContain("has seen this debate's names");
    await peek.goto(`${web.url}/runs/d2?blind=1`);
    for (const name of NAMES) expect(await peek.content(), name).not.toContain(name);
    expect(await peek.locator('button[data-arena-vote]').count()).toBe(0);
    expect(await peek.textContent('#arena-vote .arena-not-blind')).toContain('would not be blind');
    const peekToken = (await peek.getAttribute('meta[name="agora-token"]', 'content')) ?? '';
    const refused = await peek.request.post(`${web.url}/api/runs/d2/arena-votes`, {
      data: { choice: 'X' },
      headers: { 'x-agora-token': peekToken, origin: web.url },
    });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toContain('would not be blind');
    // The arena's list names no model, marks d2 as seen, and has no debate left for this browser.
    await peek.goto(`${web.url}/arena`);
    const list = await peek.content();
    for (const name of NAMES) expect(list, name).not.toContain(name);
    expect(await peek.textContent('#arena-runs')).toContain('names seen: not blind');
    expect(await peek.locator('#arena-next').count()).toBe(0);
    await peek.goto(`${web.url}/arena/next`);
    expect(await peek.locator('#arena-exhausted').count()).toBe(1);
    await peek.close();

    const board = `${web.url}/leaderboard`;
    // The people's ranking: llama3 (X) won both d1 votes and one of d3's; mistral (Y) d2's and the other of d3's.
    const people = await tableRows(browsers[0], board, 'Ranking of models by people');
    expect(people.map((row) => [row[0], ...row.slice(3)])).toEqual([
      ['llama3', '3', '2', '0', '5'],
      ['mistral', '2', '3', '0', '5'],
    ]);
    expect(Number(people[0]?.[1])).toBeGreaterThan(Number(people[1]?.[1]));

    // The people's verdicts: d1 X, d2 Y, d3 a tie. One verdict per judge model per debate:
    // mistral (Yusuf): X, Y, Y: 2 of 3 agree, kappa 0.5 (p_o 2/3, p_e 1/3).
    // qwen2.5 (Yvonne and Yannick, the majority of the two): a tie, a tie, Y: 0 of 3, kappa -0.5 (p_o 0, p_e 1/3).
    // The two judge models agree on d3 only: 1 of 3 unordered pairs.
    const round2 = (value: number) => String(Math.round(value * 100) / 100);
    const interval = (agreed: number, of: number) => {
      const found = proportionInterval(agreed, of);
      return `${round2(found?.low ?? 0)}–${round2(found?.high ?? 0)}`;
    };
    const calibration = await tableRows(browsers[1], board, 'Judges against people');
    const few = 'too few votes to tell (3 of the 10 debates needed)';
    expect(calibration).toEqual([
      [
        'mistral',
        'knockout',
        '3',
        '2',
        '0.67',
        interval(2, 3),
        '0.5',
        expect.any(String),
        '0.33 (1 of 3)',
        few,
      ],
      [
        'qwen2.5',
        'knockout',
        '3',
        '0',
        '0',
        interval(0, 3),
        '-0.5',
        expect.any(String),
        '0.33 (1 of 3)',
        few,
      ],
    ]);
    // The people put llama3 first, the judge models mistral: the rank correlation is -1, with its interval.
    const compared = await tableRows(browsers[0], board, 'Rankings by people and by judges compared');
    expect(compared).toEqual([
      ['llama3', expect.any(String), '1', expect.any(String), '2'],
      ['mistral', expect.any(String), '2', expect.any(String), '1'],
    ]);
    const boardPage = await browsers[0].newPage();
    await boardPage.goto(board);
    expect(await boardPage.textContent('body')).toMatch(
      /Kendall tau-b -1 \(95% interval -?[0-9.]+–-?[0-9.]+\)/,
    );
    await boardPage.close();
    // The judges' own ranking stands apart: it counts the rounds the judges decided, not the people's votes.
    const judges = await tableRows(browsers[0], board, 'Ranking of models (Bradley-Terry)');
    expect(judges.map((row) => [row[0], row[6]])).toEqual([
      [expect.any(String), '3'],
      [expect.any(String), '3'],
    ]);
    for (const context of browsers) await context.close();
  }, 900_000);
});
