/**
 * The blind arena in a real headless Chromium: people in two browsers vote on three debates whose
 * judges' votes the test scripts; the names are hidden before each vote and shown after it, a
 * second vote is refused, and the leaderboard's people's ranking and judges-against-people figures
 * are the ones those votes make.
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

    const board = `${web.url}/leaderboard`;
    // The people's ranking: llama3 (X) won both d1 votes and one of d3's; mistral (Y) d2's and the other of d3's.
    const people = await tableRows(browsers[0], board, 'Ranking of models by people');
    expect(people.map((row) => [row[0], ...row.slice(3)])).toEqual([
      ['llama3', '3', '2', '0', '5'],
      ['mistral', '2', '3', '0', '5'],
    ]);
    expect(Number(people[0]?.[1])).toBeGreaterThan(Number(people[1]?.[1]));

    // The people's verdicts: d1 X, d2 Y, d3 a tie. mistral judged (Yusuf): X, Y, Y: 2 of 3 agree, kappa 0.5.
    // qwen2.5 (Yvonne, Yannick): X and Y, X and Y, Y and Y: 2 of 6 agree, kappa 0.
    const round2 = (value: number) => String(Math.round(value * 100) / 100);
    const interval = (agreed: number, of: number) => {
      const found = proportionInterval(agreed, of);
      return `${round2(found?.low ?? 0)}–${round2(found?.high ?? 0)}`;
    };
    const calibration = await tableRows(browsers[1], board, 'Judges against people');
    expect(calibration).toEqual([
      [
        'mistral',
        '3',
        '3',
        '2',
        '0.67',
        interval(2, 3),
        '0.5',
        '0.67 (4 of 6)',
        'too few votes to tell (3 of the 10 debates needed)',
      ],
      [
        'qwen2.5',
        '3',
        '6',
        '2',
        '0.33',
        interval(2, 6),
        '0',
        '0.5 (6 of 12)',
        'too few votes to tell (3 of the 10 debates needed)',
      ],
    ]);
    // The judges' own ranking stands apart: it counts the rounds the judges decided, not the people's votes.
    const judges = await tableRows(browsers[0], board, 'Ranking of models (Bradley-Terry)');
    expect(judges.map((row) => [row[0], row[6]])).toEqual([
      [expect.any(String), '3'],
      [expect.any(String), '3'],
    ]);
    for (const context of browsers) await context.close();
  }, 180_000);
});
