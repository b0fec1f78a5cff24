/**
 * A truth run's page and the leaderboard with its truth table, in a real headless Chromium at a
 * phone's width and a desktop's: the results are on the page, and nothing scrolls sideways (the
 * page, a panel or a table).
 */
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { chromiumPath, launchChromium, mustRunBrowserTests } from '../helpers/browser.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { onlyRunDir } from '../helpers/transcripts.js';
import { useViewers } from '../helpers/viewer.js';

const viewer = useViewers();
const WIDTHS = [390, 1400];

/** What scrolls sideways: the page itself, or any panel or table inside its box. */
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

describe.skipIf(!chromiumPath && !mustRunBrowserTests)('a truth run at 390 and 1400 px', () => {
  let browser: Browser;
  let server: MockOllama;
  let out: string;
  let runId: string;
  let longRunId: string;
  beforeAll(async () => {
    browser = await launchChromium();
    server = await startMockOllama({ models: ['llama3', 'mistral', 'qwen2.5'], profile: 'instant' });
    out = path.join(tempDir(), 'runs');
    const run = await runAgora([
      'run',
      '--format',
      'truth',
      '--questions',
      '6',
      '--seed',
      '8',
      '--rounds',
      '1',
      '--host',
      server.url,
      '--out',
      out,
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
    runId = path.basename(onlyRunDir(out));
    // Questions from a person's file, with words longer than a phone is wide.
    const long = `https://example.org/${'very-long-path-'.repeat(8)}end`;
    const file = path.join(tempDir(), 'long.jsonl');
    writeFileSync(
      file,
      `${[
        {
          question: `Which address is the archive's? ${long}`,
          answer: `${long}/a`,
          wrong_answer: `${long}/b`,
        },
        { question: 'How many legs has a spider?', answer: 8, wrong_answer: 6 },
      ]
        .map((item) => JSON.stringify(item))
        .join('\n')}\n`,
    );
    const longOut = path.join(tempDir(), 'runs');
    const second = await runAgora([
      'run',
      '--format',
      'truth',
      '--questions',
      file,
      '--rounds',
      '1',
      '--host',
      server.url,
      '--out',
      longOut,
      '--quiet',
    ]);
    expect(second.code, second.stderr).toBe(0);
    longRunId = path.basename(onlyRunDir(longOut));
    // Both runs in one folder for the viewer.
    renameSync(path.join(longOut, longRunId), path.join(out, longRunId));
  }, 900_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the results without anything scrolling sideways', async () => {
    const web = await viewer({ outDir: out, ollamaHost: server.url });
    for (const width of WIDTHS) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${web.url}/runs/${encodeURIComponent(runId)}`);
      await page.waitForSelector('#run-header .status-completed');
      // The live page redraws the result panel from the feed: the tables are still there after it.
      expect(await page.locator('#result table.truth-questions tbody tr').count()).toBe(6);
      expect(await page.locator('#result table.truth-accuracy tbody tr').count()).toBe(3);
      expect(await page.textContent('#result table.truth-differences')).toMatch(
        /debate − direct.*points \([−+]?\d+ to [−+]?\d+\)/s,
      );
      // At a phone's width each row is a block of "label: value" lines; at a desktop's, a table row.
      const display = await page.evaluate(
        "getComputedStyle(document.querySelector('#result table.truth-accuracy td')).display",
      );
      expect(display, `accuracy cells at ${width} px`).toBe(width < 760 ? 'block' : 'table-cell');
      // The scoreboard: a verdict a row, named by question and condition, the verdict shown at every width.
      const verdicts = page.locator('#scoreboard table.truth tbody tr');
      // Six questions, three conditions, each read in both answer orders.
      expect(await verdicts.count()).toBe(36);
      expect(await verdicts.first().locator('td').nth(1).textContent()).toBe('direct');
      const lastCell = verdicts.last().locator('td').last();
      expect(await lastCell.isVisible(), `verdict column at ${width} px`).toBe(true);
      expect(await lastCell.textContent()).toMatch(/^believes Answer [12], confidence \d+%$/);
      expect(await sidewaysScrolling(page), `run page at ${width} px`).toEqual([]);

      await page.goto(`${web.url}/runs/${encodeURIComponent(longRunId)}`);
      await page.waitForSelector('#run-header .status-completed');
      expect(await page.locator('#result table.truth-questions tbody tr').count()).toBe(2);
      expect(await sidewaysScrolling(page), `run page with long words at ${width} px`).toEqual([]);

      await page.goto(`${web.url}/leaderboard`);
      expect(await page.textContent('main')).toContain('Judges against the truth');
      expect(await sidewaysScrolling(page), `leaderboard at ${width} px`).toEqual([]);
      await page.close();
    }
  }, 900_000);
});
