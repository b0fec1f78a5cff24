/**
 * The argument map in a real headless Chromium: a six-round knockout and a formal debate at a
 * phone's width and a wide screen (one layout each, every claim a node, text at a readable size,
 * nothing past the panel), the same map in the exported file without a server or script, and a
 * live debate's map filling in as it runs.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { argumentMap } from '../../src/analytics/argument-map.js';
import type { RunEvent } from '../../src/core/events.js';
import { chromiumPath, launchChromium, mustRunBrowserTests, screenshotPath } from '../helpers/browser.js';
import { runAgora, writeFiles } from '../helpers/cli.js';
import { SMALL_SCENARIOS } from '../helpers/format-scenarios.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { readEvents } from '../helpers/transcripts.js';
import { pageToken, startRun, useViewers } from '../helpers/viewer.js';

const mock = useMockServers();
/** How long a page may take to show what it was sent: a guard against hangs, never reached by load. */
const WAIT = { timeout: 600_000 };
const viewer = useViewers();

/** How the visible drawing sits in its panel: its layout, its scale (screen pixels per unit), and whether it overflows. */
async function drawing(page: Page) {
  return page.evaluate(`(() => {
    const svg = [...document.querySelectorAll('.map-box svg')].find((element) => element.getBoundingClientRect().width > 0);
    const panel = svg.closest('.panel').getBoundingClientRect();
    const box = svg.getBoundingClientRect();
    return {
      layout: svg.getAttribute('class'),
      scale: box.width / svg.viewBox.baseVal.width,
      inside: box.left >= panel.left - 1 && box.right <= panel.right + 1,
      nodes: svg.querySelectorAll('g.claim').length,
      edges: svg.querySelectorAll('path.edge').length,
    };
  })()`) as Promise<{ layout: string; scale: number; inside: boolean; nodes: number; edges: number }>;
}

describe.skipIf(!chromiumPath && !mustRunBrowserTests)('the argument map in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('draws a six-round knockout and a formal debate readably at 390 and 1920 px, and the same map in the export', async () => {
    const server = await mock();
    const dir = writeFiles({
      'knockout.yaml': stringify(testScenario({ rounds: 6 })),
      'formal.yaml': stringify(SMALL_SCENARIOS.formal?.() ?? {}),
    });
    const out = path.join(dir, 'runs');
    for (const name of ['knockout', 'formal']) {
      const run = await runAgora([
        'run',
        path.join(dir, `${name}.yaml`),
        '--run-id',
        name,
        '--out',
        out,
        '--host',
        server.url,
        '--quiet',
      ]);
      expect(run.code, run.stderr).toBe(0);
    }
    const web = await viewer({ outDir: out, ollamaHost: server.url });
    for (const name of ['knockout', 'formal']) {
      const map = argumentMap(readEvents(path.join(out, name)) as unknown as RunEvent[]);
      expect(map?.claims.length, name).toBeGreaterThan(5);
      for (const width of [390, 1920]) {
        const page = await browser.newPage({ viewport: { width, height: 1000 } });
        await page.goto(`${web.url}/runs/${name}`);
        const shown = await drawing(page);
        expect(shown.layout, `${name} at ${width}`).toBe(width === 390 ? 'map-narrow' : 'map-wide');
        expect(shown.nodes).toBe(map?.claims.length);
        expect(shown.edges).toBe(map?.edges.length);
        expect(shown.inside, `${name} at ${width}: inside its panel`).toBe(true);
        // A claim's 12-unit text is 10 px or more on screen.
        expect(shown.scale, `${name} at ${width}: scale`).toBeGreaterThanOrEqual(10 / 12);
        await page.locator('.map-panel').screenshot({ path: screenshotPath(`map-${name}-${width}.png`) });
        await page.close();
      }
    }
    expect(await page390Summary(browser, `${web.url}/runs/knockout`)).toMatch(
      /^\d+ claims, \d+ answers, \d+ supports?: \d+ answered, \d+ left open, \d+ dropped\.$/,
    );

    // The export: the same map, static, opened from a file with no server and no script.
    const exported = await runAgora(['export', 'knockout', '--html', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const offline = await browser.newPage({ viewport: { width: 1920, height: 1000 } });
    await offline.goto(`file://${path.join(out, 'knockout', 'transcript.html')}`);
    const inFile = await drawing(offline);
    const map = argumentMap(readEvents(path.join(out, 'knockout')) as unknown as RunEvent[]);
    expect(inFile).toMatchObject({
      layout: 'map-wide',
      nodes: map?.claims.length,
      edges: map?.edges.length,
      inside: true,
    });
    expect(await offline.locator('table.argument-scores tbody tr').count()).toBe(map?.scores.length);
    await offline.close();
  }, 900_000);

  it('fills in the map of a debate as it runs, and says "Topic accepted" only while it does', async () => {
    const server = await mock({ speed: 0.3 });
    const outDir = writeFiles({});
    const web = await viewer({ outDir, ollamaHost: server.url });
    const runId = await startRun(web, await pageToken(web), {
      format: 'knockout',
      topic: 'Mapped as it goes',
      rounds: 2,
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${web.url}/runs/${encodeURIComponent(runId)}`);
    // While the debate still runs, the first claims arrive on the map.
    await page.waitForSelector('#argument-map svg.map-wide g.claim', { timeout: 600_000 });
    expect(await page.getAttribute('#run', 'data-status')).not.toBe('completed');
    expect(await page.textContent('#start-notices')).toContain('Topic accepted: “Mapped as it goes”');
    await page.waitForSelector('#run-header .status-completed', { timeout: 600_000 });
    // "Topic accepted" greets a debate under way: the page that saw it end drops it without a reload.
    await expect.poll(() => page.locator('#topic-accepted').count(), WAIT).toBe(0);
    // Once the last claims are in, the page's map has every claim of the log, without a reload.
    const claims = argumentMap(readEvents(path.join(outDir, runId)) as unknown as RunEvent[])?.claims.length;
    await expect.poll(() => page.locator('#argument-map svg.map-wide g.claim').count(), WAIT).toBe(claims);
    await page.close();
  }, 900_000);
});

async function page390Summary(browser: Browser, url: string): Promise<string> {
  const page = await browser.newPage({ viewport: { width: 390, height: 900 } });
  await page.goto(url);
  const text = (await page.textContent('.map-summary')) ?? '';
  await page.close();
  return text;
}
