/**
 * The tournament page in a real headless Chromium at a phone's width and a desktop's: the ratings as
 * interval bars, the pairings as a matrix of wins, nothing clipped and nothing scrolling sideways.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium, mustRunBrowserTests, screenshotPath } from '../helpers/browser.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useViewers } from '../helpers/viewer.js';

const viewer = useViewers();

describe.skipIf(!chromiumPath && !mustRunBrowserTests)('the tournament page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the ratings as interval bars and the pairings as a matrix at 390 and 1400 px', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'motions.txt'), 'Tea is better than coffee\n');
    const out = path.join(dir, 'cup');
    const models = ['llama3:8b-instruct-q4_K_M', 'mistral', 'qwen2.5'];
    const run = await runAgora(
      [
        'tournament',
        '--demo',
        '--models',
        models.join(','),
        '--motions',
        'motions.txt',
        '--rounds',
        '1',
        '--out',
        out,
        '--json',
      ],
      { cwd: dir },
    );
    expect([0, 9]).toContain(run.code);
    const printed = JSON.parse(run.stdout).standings;
    const web = await viewer({ outDir: out, ollamaHost: 'http://127.0.0.1:1' });

    for (const width of [390, 1400]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${web.url}/tournament`);
      // The page's ratings are the ones the command printed, best first.
      const names = await page.locator('ol.ratings .model').allTextContents();
      expect(names).toEqual(printed.models.map((model: { model: string }) => model.model));
      expect(await page.locator('ol.ratings .interval.raw').count()).toBe(3);
      expect(await page.locator('ol.ratings .interval.style').count()).toBe(3);
      // Each interval is drawn: its bar has a width on the page, and its estimate lies within it.
      const bars = (await page.evaluate(
        "[...document.querySelectorAll('svg.interval')].map((svg) => { const span = svg.querySelector('.span').getBoundingClientRect(); const mark = svg.querySelector('.mark').getBoundingClientRect(); return [span.width, mark.left + 1 >= span.left - 0.5 && mark.left + 1 <= span.right + 0.5]; })",
      )) as Array<[number, boolean]>;
      expect(bars).toHaveLength(6);
      for (const [spanWidth, markInside] of bars) {
        expect(spanWidth).toBeGreaterThan(2);
        expect(markInside).toBe(true);
      }
      expect(await page.locator('table.matrix tbody tr').count()).toBe(3);
      // Each pair met twice (both side orders): each row's cells against the others hold two results.
      const cells = await page.locator('table.matrix tbody td:not(.self)').allTextContents();
      expect(cells).toHaveLength(6);
      for (const text of cells) {
        const [wins, rest = ''] = text.split('–');
        const [losses, ties = '0'] = rest.split('/');
        expect(Number(wins) + Number(losses) + Number(ties)).toBe(2);
      }
      // Nothing scrolls sideways, and nothing is cut: every element ends inside the page.
      expect(
        await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'),
        `${width} px`,
      ).toBe(true);
      const outside = await page.evaluate(
        "[...document.querySelectorAll('main *, body > *')].filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5).map((element) => element.tagName + '.' + element.className)",
      );
      expect(outside, `${width} px`).toEqual([]);
      const clipped = await page.evaluate(
        "[...document.querySelectorAll('.rating-head *, table.matrix th, table.matrix td')].filter((element) => element.scrollWidth > element.clientWidth + 1).length",
      );
      expect(clipped, `${width} px`).toBe(0);
      await page.screenshot({ path: screenshotPath(`tournament-page-${width}.png`), fullPage: true });
      await page.close();
    }
  });
});
