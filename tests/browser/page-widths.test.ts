/**
 * The viewer's pages at a phone's width and at two desktop widths, in a real headless Chromium:
 * nothing scrolls sideways, and the runs page says when, with what and how each run ended.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { chromiumPath, launchChromium, mustRunBrowserTests, screenshotPath } from '../helpers/browser.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir } from '../helpers/transcripts.js';
import { useViewers } from '../helpers/viewer.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });
const viewer = useViewers();
const WIDTHS = [390, 1280, 1400, 1920];

async function noSidewaysScroll(page: Page) {
  // A string: the test is compiled without the DOM's types.
  return page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');
}

describe.skipIf(!chromiumPath && !mustRunBrowserTests)('the viewer at phone and desktop widths', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the runs page and a finished knockout without horizontal scrolling, with date, models, duration and outcome', async () => {
    const server = await mock();
    const dir = tempDir();
    const out = path.join(dir, 'runs');
    writeFileSync(
      path.join(dir, 'scenario.yaml'),
      stringify(testScenario({ rounds: 4, extra: { title: 'Car-free centres' } })),
    );
    const run = await runAgora([
      'run',
      path.join(dir, 'scenario.yaml'),
      '--host',
      server.url,
      '--out',
      out,
      '--quiet',
    ]);
    expect(run.code).toBe(0);
    const runId = path.basename(onlyRunDir(out));
    const web = await viewer({ outDir: out, ollamaHost: server.url });

    for (const width of WIDTHS) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${web.url}/`);
      const row = page.locator('#runs-body tr').first();
      expect(await row.textContent()).toContain('Should cities ban cars from their centres?');
      expect(await row.locator('td[data-label="Started"]').textContent()).toMatch(
        /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
      );
      expect(await row.locator('td[data-label="Format"]').textContent()).toContain('llama3, mistral');
      expect(await row.locator('td[data-label="Duration"]').textContent()).toMatch(/^\d+ s$/);
      expect(await row.locator('td[data-label="Outcome"]').textContent()).toMatch(
        /^Xavier \(Car-free\) knocked out \d of \d opponents?; .*, so (Car-free prevails|Car-friendly holds)\.$/,
      );
      expect(await noSidewaysScroll(page), `runs page at ${width} px`).toBe(true);
      if (width >= 1280) {
        // With room on the page, the run id shows whole, not in a box that scrolls.
        const clipped = await page.evaluate(
          "[...document.querySelectorAll('td code.run-id')].filter((id) => id.scrollWidth > id.clientWidth + 1).length",
        );
        expect(clipped, `clipped run ids at ${width} px`).toBe(0);
      }
      await page.screenshot({ path: screenshotPath(`runs-page-${width}.png`), fullPage: true });

      await page.goto(`${web.url}/runs/${encodeURIComponent(runId)}`);
      await page.waitForSelector('#run-header .status-completed');
      expect(await page.textContent('#result')).toMatch(
        /Xavier \(Car-free\) knocked out \d of \d opponents?; .*, so (Car-free prevails|Car-friendly holds)\./,
      );
      expect(await page.textContent('#scoreboard')).toMatch(/\d\.\d\d\s\/\s5/);
      await page.screenshot({ path: screenshotPath(`run-page-${width}.png`), fullPage: false });
      await page.locator('#scoreboard').screenshot({ path: screenshotPath(`run-scoreboard-${width}.png`) });
      expect(await noSidewaysScroll(page), `run page at ${width} px`).toBe(true);
      // The scoreboard fits its panel: no scrolling inside it either.
      expect(
        await page.evaluate(
          "(() => { const board = document.querySelector('#scoreboard table'); return board ? board.scrollWidth <= board.parentElement.clientWidth + 1 : false; })()",
        ),
        `scoreboard at ${width} px`,
      ).toBe(true);
      await page.close();
    }
  }, 900_000);
});
