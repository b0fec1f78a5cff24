/**
 * The run pages of all five formats, the runs list and the leaderboard, at a phone's width and two
 * desktop widths, in a real headless Chromium: the page never scrolls sideways, no panel (the
 * scoreboards, with spectators' votes, among them) scrolls sideways inside, and run ids stay whole.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium, mustRunBrowserTests } from '../helpers/browser.js';
import { projectRoot, runAgora, tempDir } from '../helpers/cli.js';
import { useViewers } from '../helpers/viewer.js';

const viewer = useViewers();
const WIDTHS = [390, 1400, 1920];
/** One scenario of each format, and the choices a spectator has in it. */
const SCENARIOS = [
  { file: 'abortion.yaml', format: 'knockout', choices: ['continue', 'rotate'] },
  { file: 'duel-remote-work.yaml', format: 'duel', choices: ['a', 'b'] },
  { file: 'formal-car-free-cities.yaml', format: 'formal', choices: ['affirmative', 'negative'] },
  { file: 'critique-rate-limiter.yaml', format: 'critique', choices: [] },
  { file: 'council-billing-database.yaml', format: 'council', choices: [] },
];

/** Spectators' votes on every round, so that the scoreboards' Spectators columns are filled. */
function addSpectatorVotes(runDir: string, choices: string[]) {
  const lines: string[] = [];
  for (let round = 1; round <= 12; round += 1) {
    for (const [at, choice] of [...choices, ...choices, ...choices].entries()) {
      const vote = {
        type: 'spectator-vote',
        seq: lines.length,
        at: '2026-11-25T12:00:00.000Z',
        round,
        choice,
      };
      lines.push(JSON.stringify({ ...vote, voter: `voter-${round}-${at}` }));
    }
  }
  writeFileSync(path.join(runDir, 'spectators.jsonl'), `${lines.join('\n')}\n`);
}

/** What scrolls sideways on the page: the page itself, or any panel or table inside its box. */
async function sidewaysScrolling(page: Page): Promise<string[]> {
  // A string: the test is compiled without the DOM's types.
  return page.evaluate(`(() => {
    const found = [];
    if (document.documentElement.scrollWidth > window.innerWidth) found.push('the page');
    for (const box of document.querySelectorAll('.panel, table')) {
      if (box.scrollWidth > box.clientWidth + 1) found.push(box.tagName + '.' + box.className + ' ' + box.scrollWidth + ' > ' + box.clientWidth);
    }
    return found;
  })()`);
}

describe.skipIf(!chromiumPath && !mustRunBrowserTests)(
  'the run pages of every format at 390, 1400 and 1920 px',
  () => {
    let browser: Browser;
    let out: string;
    const runIds = new Map<string, string>();
    beforeAll(async () => {
      browser = await launchChromium();
      out = path.join(tempDir(), 'runs');
      for (const scenario of SCENARIOS) {
        const run = await runAgora([
          'demo',
          path.join(projectRoot, 'scenarios', scenario.file),
          '--profile',
          'instant',
          '--out',
          out,
          '--json',
        ]);
        expect(run.code, run.stderr).toBe(0);
        const summary = JSON.parse(run.stdout) as { runId: string; runDir?: string };
        runIds.set(scenario.format, summary.runId);
        if (scenario.choices.length > 0) addSpectatorVotes(path.join(out, summary.runId), scenario.choices);
      }
    }, 900_000);
    afterAll(async () => {
      await browser?.close();
    });

    it('scroll sideways nowhere: run pages, runs list and leaderboard, with run ids kept whole', async () => {
      const web = await viewer({ outDir: out, ollamaHost: 'http://127.0.0.1:9' });
      const pages = [
        '/',
        '/leaderboard?demo=1',
        ...[...runIds.values()].map((runId) => `/runs/${encodeURIComponent(runId)}`),
      ];
      for (const width of WIDTHS) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        for (const address of pages) {
          await page.goto(`${web.url}${address}`);
          if (address.startsWith('/runs/')) await page.waitForSelector('#run-header .status-completed');
          expect(await sidewaysScrolling(page), `${address} at ${width} px`).toEqual([]);
          // A run id shown as an id is never broken across lines.
          const ids: Array<{ text: string; wrap: string }> = await page.evaluate(
            "[...document.querySelectorAll('code.run-id')].map((id) => ({ text: id.textContent, wrap: getComputedStyle(id).whiteSpace }))",
          );
          expect(ids.length, `${address} shows run ids`).toBeGreaterThan(
            address === '/leaderboard?demo=1' ? -1 : 0,
          );
          for (const id of ids) expect(id.wrap, `${id.text} at ${width} px`).toBe('nowrap');
        }
        await page.close();
      }
      // The leaderboard had tables to show.
      const board = await (await fetch(`${web.url}/leaderboard?demo=1`)).text();
      expect(board).toContain('<table class="stack">');
    }, 900_000);
  },
);
