/**
 * Headless Chromium for the browser tests, driven by playwright-core: the system's Chromium
 * (Debian's `chromium` package; CHROMIUM_PATH overrides), never a downloaded one.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { projectRoot } from './cli.js';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];

export const chromiumPath = CANDIDATES.find(
  (candidate): candidate is string => typeof candidate === 'string' && existsSync(candidate),
);

/** In CI the browser tests must run: a missing Chromium is a failure there, not a skip. */
export const mustRunBrowserTests = Boolean(process.env.CI);

export function launchChromium(): Promise<Browser> {
  if (!chromiumPath) {
    throw new Error('Chromium is not installed: `apt-get install chromium` (or set CHROMIUM_PATH)');
  }
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    // No sandbox as root in a container; no background traffic on a machine without a network.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Where screenshots are kept as test artifacts. */
export function screenshotPath(name: string): string {
  const folder = path.join(projectRoot, 'test-artifacts', 'screenshots');
  mkdirSync(folder, { recursive: true });
  return path.join(folder, name);
}

/**
 * Starts a knockout from the viewer's new-debate form in `page`: `fields` maps each field's
 * selector to its value (a select's option or an input's text). Returns the new run's id, from the
 * run page the form leads to.
 */
export async function startKnockoutFromForm(
  page: Page,
  viewerUrl: string,
  fields: { selects?: Record<string, string>; inputs?: Record<string, string> },
): Promise<string> {
  await page.goto(`${viewerUrl}/new`);
  await page.selectOption('#format', 'knockout');
  for (const [selector, value] of Object.entries(fields.selects ?? {}))
    await page.selectOption(selector, value);
  for (const [selector, value] of Object.entries(fields.inputs ?? {})) await page.fill(selector, value);
  await page.click('button[type=submit]');
  await page.waitForURL(/\/runs\/[^/]+$/);
  return decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1) as string);
}
