/**
 * The screenshots of the podium in docs/podium.md: a knockout's run page in the browser that holds
 * the person's seat, while the person waits for their turn, while they type, and after the end,
 * each at 390 and 1400 px wide. The viewer runs against the built-in simulator (paced, so the
 * waiting can be seen) in a temporary folder, in the system's Chromium (`/usr/bin/chromium`, or
 * CHROMIUM_PATH). `npm run screenshots:podium [-- OUT_DIR]` writes docs/images/podium-*.png.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { chromium, type Page } from 'playwright-core';
import { startMockOllama } from '../src/mock-ollama/index.js';
import { startViewer } from '../src/web/server.js';
import { processLauncher } from '../src/web/workers.js';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.resolve(process.argv[2] ?? path.join(root, 'docs', 'images'));
const chromiumPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (candidate): candidate is string => typeof candidate === 'string' && existsSync(candidate),
);
if (!chromiumPath)
  throw new Error('Chromium is not installed: `apt-get install chromium` (or set CHROMIUM_PATH)');

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1400, height: 900 },
] as const;
const STATEMENT =
  'Car-free centres save lives. Injuries fall sharply wherever cars leave busy streets, and the shops my opponent worries about gained footfall in every pilot street.';
const LATER =
  'Clean air is a public good, and the pilots show that people walk and cycle once the streets are safe.';
const WAIT = { timeout: 600_000 };

/**
 * Each width's screenshot of the page: scrolled so the podium panel is near the top, with the line
 * above it (who is speaking), or at the top of the page (the result, after the end).
 */
async function shoot(page: Page, name: string, where: 'podium' | 'top' = 'podium'): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.evaluate(
      where === 'top'
        ? 'window.scrollTo(0, 0)'
        : "window.scrollTo(0, document.querySelector('#podium').getBoundingClientRect().top + window.scrollY - 40)",
    );
    // The page must not scroll sideways at either width.
    const sideways = await page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
    if (sideways) throw new Error(`${name} scrolls sideways at ${size.width} px`);
    const file = path.join(outDir, `podium-${name}-${size.width}.png`);
    await page.screenshot({ path: file });
    process.stdout.write(`${file}\n`);
  }
}

const work = mkdtempSync(path.join(tmpdir(), 'agora-podium-screenshots-'));
// Paced as a GPU would answer, slowed down, so the page is seen waiting for the person's turn.
const mock = await startMockOllama({ models: ['llama3', 'mistral'], profile: 'gpu', speed: 0.5 });
const viewer = await startViewer({
  cwd: root,
  scenariosDir: path.join(root, 'scenarios'),
  outDir: work,
  ollamaHost: mock.url,
  port: 0,
  launcher: processLauncher({ cwd: root, env: { ...process.env, NO_COLOR: '1' } }),
  logger: pino({ enabled: false }),
});
const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const context = await browser.newContext({ viewport: WIDTHS[0], deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${viewer.url}/new`);
  await page.selectOption('#format', 'knockout');
  await page.selectOption('#human', 'x');
  await page.fill('#topic', 'Should cities ban private cars from their centres?');
  await page.fill('#rounds', '2');
  await page.click('button[type=submit]');
  await page.waitForURL(/\/runs\/[^/]+$/);

  // The person's turn: the task, the box with a statement being written, the word count.
  await page.waitForSelector('#podium-text', WAIT);
  await page.fill('#podium-text', STATEMENT);
  await page.locator('#podium-count', { hasText: /^\d+ of about \d+ words/ }).waitFor(WAIT);
  await shoot(page, 'typing');

  // Sent: the models speak and judge, and the page waits for the person's next turn.
  await page.click('#podium-form button[type=submit]');
  await page.locator('#transcript', { hasText: 'Injuries fall sharply' }).waitFor(WAIT);
  await page.locator('#podium-body', { hasText: 'your turn again' }).waitFor(WAIT);
  await shoot(page, 'waiting');

  // The second turn, then the end of the debate.
  await page.waitForSelector('#podium-text', WAIT);
  await page.fill('#podium-text', LATER);
  await page.click('#podium-form button[type=submit]');
  await page.locator('#podium-body', { hasText: 'The debate has ended' }).waitFor(WAIT);
  await shoot(page, 'ended', 'top');
  await context.close();
} finally {
  await browser.close();
  await viewer.close();
  await mock.close();
  rmSync(work, { recursive: true, force: true });
}
