/**
 * The web viewer in a real headless Chromium: a debate started from the form, followed live,
 * left and rejoined, stopped and resumed from the buttons, voted on, and a model's markup shown as
 * text. Debates run in worker processes against the mock Ollama.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium, mustRunBrowserTests, screenshotPath } from '../helpers/browser.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { answerLate, useMockServers } from '../helpers/mock-servers.js';
import { readEvents } from '../helpers/transcripts.js';
import { pageToken, readStream, runEnded, startRun, useViewers } from '../helpers/viewer.js';

const mock = useMockServers();
/** How long a page may take to show what it was sent: a guard against hangs, never reached by load. */
const WAIT = { timeout: 600_000 };
const viewer = useViewers();
const MARKUP = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">';

describe.skipIf(!chromiumPath && !mustRunBrowserTests)('the web viewer in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('starts a debate from the form, shows statements as they are generated, and shows the whole run after the page is reopened', async () => {
    const server = await mock({ speed: 0.3 });
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${web.url}/new`);
    await page.selectOption('#format', 'knockout');
    await page.fill('#topic', 'Should cities ban private cars?');
    await page.fill('#rounds', '3');
    await page.fill('#seed', 'forty-two');
    await page.click('button[type=submit]');
    await page.waitForURL(/\/runs\/[^/]+$/);
    const runId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1) as string);
    await expect
      .poll(() => page.textContent('#start-notices'), WAIT)
      .toContain('Topic accepted: “Should cities ban private cars?”');
    expect(await page.textContent('#start-notices')).toContain('Seed "forty-two" is not a whole number');

    // Live: a statement streams into the "generating" box, and says who is generating.
    await page.waitForSelector('#generating .generating .text:not(:empty)', { timeout: 600_000 });
    expect(await page.textContent('#generating .who')).toMatch(/is generating/);
    expect(await page.textContent('#activity')).toMatch(/is generating on (llama3|mistral)/);
    // The line near the top leads to the statement streaming at the foot of the page.
    expect(await page.getAttribute('#activity a.follow-live', 'href')).toBe('#generating');
    // ...and shows the newest words of that statement there, above the transcript, as they come
    // (checked in one step in the page, while some statement is being written). Polled from here:
    // a string predicate polled by the page itself would be evaluated there, which the viewer's
    // Content-Security-Policy (no 'unsafe-eval') refuses whenever the first check is not yet true.
    const liveTailShown = () =>
      page.evaluate(
        `(() => {
        const tail = document.getElementById('live-tail');
        const box = document.querySelector('#generating .generating');
        const transcript = document.getElementById('transcript');
        if (!box || tail.hidden) return false;
        const agent = box.dataset.agent;
        const shown = tail.textContent;
        const newest = shown.slice(agent.length + 2).replace(/^…/, '');
        return (
          shown.startsWith(agent + ': ') &&
          newest.length > 0 &&
          box.querySelector('.text').textContent.endsWith(newest) &&
          tail.getBoundingClientRect().bottom <= transcript.getBoundingClientRect().top
        );
      })()`,
      );
    await expect.poll(liveTailShown, { timeout: 600_000, interval: 50 }).toBe(true);
    await page.waitForSelector('#transcript article.statement', { timeout: 600_000 });
    await page.screenshot({ path: screenshotPath('run-page-live.png') });
    expect(readEvents(path.join(outDir, runId)).some((event) => event.type === 'run-end')).toBe(false);

    // Closing the page does not touch the run; reopening it shows everything, and it finished.
    await page.close();
    await readStream(web, runId, runEnded, { timeoutMs: 600_000 });
    const again = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await again.goto(`${web.url}/runs/${encodeURIComponent(runId)}`);
    await again.waitForSelector('#run-header .status-completed');
    const log = readEvents(path.join(outDir, runId));
    expect(log.at(-1)?.type).toBe('run-end');
    expect(await again.locator('#transcript .event').count()).toBe(log.length);
    expect(await again.locator('#scoreboard tbody tr').count()).toBe(3);
    expect(await again.locator('#charts svg').count()).toBeGreaterThanOrEqual(4);
    await again.screenshot({ path: screenshotPath('run-page.png'), fullPage: true });
    await again.screenshot({ path: screenshotPath('run-page-top.png') });

    // A spectator's vote is recorded and shown beside the judges' in the scoreboard.
    await again.click('button[data-vote="rotate"]');
    await expect.poll(() => again.textContent('#vote-message'), WAIT).toContain('is recorded');
    await expect.poll(() => again.textContent('#scoreboard tbody tr:last-child'), WAIT).toContain('1 rotate');
    const stored = readFileSync(path.join(outDir, runId, 'spectators.jsonl'), 'utf8');
    expect(JSON.parse(stored)).toMatchObject({ type: 'spectator-vote', round: 3, choice: 'rotate' });
    await again.close();
  }, 900_000);

  it('stops and resumes a debate from the buttons', async () => {
    // Round 3's first judge answers a minute late, so the debate is still going when Stop comes
    // unless that is a minute late (a stop waits for the step in flight: a call that never answered
    // would hold it for ever). The resume then finds a server without that delay on the same port.
    const slowed = await mock({
      speed: 0.3,
      script: [answerLate({ text: '## Your task: evaluate round 3\n' })],
    });
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: slowed.url });
    const token = await pageToken(web);
    const runId = await startRun(web, token, { format: 'knockout', topic: 'Stop and go', rounds: 3 });
    const page = await browser.newPage();
    await page.goto(`${web.url}/runs/${encodeURIComponent(runId)}`);
    await page.waitForSelector('#transcript article.statement', { timeout: 600_000 });
    await page.click('button[data-action="stop"]');
    await page.waitForSelector('#run-header .status-stopped', { timeout: 600_000 });
    const stoppedAt = readEvents(path.join(outDir, runId)).filter(
      (event) => event.type === 'round-end',
    ).length;
    expect(stoppedAt).toBeLessThan(3);
    await slowed.close();
    await mock({ speed: 0.3, port: slowed.port });
    await page.click('button[data-action="resume"]:not([disabled])');
    await page.waitForSelector('#run-header .status-completed', { timeout: 600_000 });
    const log = readEvents(path.join(outDir, runId));
    expect(log.filter((event) => event.type === 'round-end')).toHaveLength(3);
    expect(log.filter((event) => event.type === 'run-end').map((event) => event.status)).toEqual([
      'stopped',
      'completed',
    ]);
    // The page shows the same events as the log, once each.
    expect(await page.locator('#transcript .event').count()).toBe(log.length);
    await page.close();
  }, 900_000);

  it('shows a model answer with markup as text, live, on the page and in the exported file', async () => {
    const server = await mock({
      speed: 0.3,
      script: [{ match: { model: 'llama3' }, reply: `I say ${MARKUP} and mean it.`, times: 1 }],
    });
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const token = await pageToken(web);
    const runId = await startRun(web, token, { format: 'knockout', topic: 'Markup', rounds: 1 });
    const page = await browser.newPage();
    await page.goto(`${web.url}/runs/${encodeURIComponent(runId)}`);
    await page.waitForSelector('#run-header .status-completed', { timeout: 600_000 });
    const first = page.locator('#transcript article.statement').first();
    expect(await first.textContent()).toContain(`I say ${MARKUP} and mean it.`);
    expect(await page.locator('#run img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    await page.close();

    const exported = await runAgora(['export', runId, '--html', '--out', outDir]);
    expect(exported.code).toBe(0);
    const file = path.join(outDir, runId, 'transcript.html');
    const offline = await browser.newPage();
    await offline.goto(`file://${file}`);
    expect(await offline.locator('article.statement').first().textContent()).toContain(MARKUP);
    expect(await offline.locator('img').count()).toBe(0);
    expect(await offline.locator('svg').count()).toBeGreaterThanOrEqual(3);
    expect(await offline.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    await offline.screenshot({ path: screenshotPath('export.png'), fullPage: true });
    await offline.close();
  }, 900_000);
});
