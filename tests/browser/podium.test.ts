/**
 * A person at the podium in the viewer, in a real headless Chromium at phone width: the browser
 * that starts a knockout with a person's seat gets a box to write in on the person's turn, its
 * statements enter the debate and the debate goes on; another browser, without the seat, gets no
 * box and is refused when it tries to speak.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  chromiumPath,
  launchChromium,
  mustRunBrowserTests,
  startKnockoutFromForm,
} from '../helpers/browser.js';
import { tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { readEvents } from '../helpers/transcripts.js';
import { readStream, runEnded, useViewers } from '../helpers/viewer.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });
const viewer = useViewers();

const FIRST =
  'Car-free centres save lives. Injuries fall sharply wherever cars are removed from busy streets.';
const SECOND =
  'The shops my opponent worries about gained footfall in every pilot street. Clean air is a public good.';

/** Generous waits: worker processes start slowly on a busy machine. */
const WAIT = { timeout: 600_000 };

describe.skipIf(!chromiumPath && !mustRunBrowserTests)('a person at the podium, in the viewer', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('gives the seat’s browser a box on the person’s turn, takes its statements into the debate, and refuses another browser', async () => {
    const server = await mock();
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const person = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await person.newPage();
    const runId = await startKnockoutFromForm(page, web.url, {
      selects: { '#human': 'x' },
      inputs: { '#topic': 'Should cities ban private cars?', '#rounds': '2' },
    });

    // First turn: the task as a person reads it, and a live word count against the limit.
    await page.waitForSelector('#podium-text', WAIT);
    expect(await page.textContent('#podium')).toContain('Motion: Should cities ban private cars?');
    await page.fill('#podium-text', FIRST);
    await expect
      .poll(() => page.textContent('#podium-count'), WAIT)
      .toMatch(/^14 of about \d+ words; about \d+ s of speaking time left$/);
    // The page fits a phone: nothing scrolls sideways.
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);

    // Another browser sees that the debate waits for the person, gets no box, and may not speak.
    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const stranger = await other.newPage();
    await stranger.goto(`${web.url}/runs/${encodeURIComponent(runId)}`);
    await expect.poll(() => stranger.textContent('#podium-body'), WAIT).toContain('waits for');
    expect(await stranger.locator('#podium-text').count()).toBe(0);
    const refused = (await stranger.evaluate(`(async () => {
      const token = document.querySelector('meta[name="agora-token"]')?.getAttribute('content') ?? '';
      const response = await fetch('/api/runs/${encodeURIComponent(runId)}/podium', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-agora-token': token },
        body: JSON.stringify({ turn: 'any', text: 'I speak for the person.' }),
      });
      return { status: response.status, body: await response.text() };
    })()`)) as { status: number; body: string };
    expect(refused.status).toBe(403);
    expect(refused.body).toContain("does not hold the person's seat");
    await other.close();

    await page.click('#podium-form button[type=submit]');
    await expect.poll(() => page.textContent('#podium-body'), WAIT).toContain('Sent');
    await expect.poll(() => page.textContent('#transcript'), WAIT).toContain('Injuries fall sharply');

    // Second turn: a new box, for the next statement.
    await page.waitForSelector('#podium-text', WAIT);
    await page.fill('#podium-text', SECOND);
    await page.click('#podium-form button[type=submit]');
    await readStream(web, runId, runEnded, { timeoutMs: 600_000 });
    const events = readEvents(path.join(outDir, runId));
    const xTurns = events.filter((event) => event.type === 'turn-end' && event.position === 'X');
    expect(xTurns.map((turn) => [turn.model, turn.text])).toEqual([
      ['person', FIRST],
      ['person', SECOND],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(events.filter((event) => event.type === 'vote-cast')).toHaveLength(6);
    await person.close();
  });
  it('shows a person in a Position Y seat the criteria the judges score, and takes the statement', async () => {
    const server = await mock();
    const outDir = tempDir();
    // A scenario whose first Position Y agent is a person's seat (`human: true`).
    const scenariosDir = path.join(tempDir(), 'scenarios');
    mkdirSync(scenariosDir);
    const data = testScenario({ rounds: 1 }) as { agents: Array<Record<string, unknown>> };
    data.agents = data.agents.map((agent) => (agent.name === 'Yara' ? { ...agent, human: true } : agent));
    writeFileSync(path.join(scenariosDir, 'y-seat.yaml'), stringify(data));
    const web = await viewer({ outDir, ollamaHost: server.url, scenariosDir });
    const person = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await person.newPage();
    // The scenario's seed, with which Yara opens for Position Y (the viewer draws one otherwise).
    const runId = await startKnockoutFromForm(page, web.url, {
      selects: { '#scenario': 'y-seat.yaml' },
      inputs: { '#seed': '11' },
    });

    await page.waitForSelector('#podium-text', WAIT);
    const shown = (await page.textContent('#podium')) ?? '';
    expect(shown).toContain('The judges score your statement from 1 (poor) to 5 (excellent) on');
    const criteria = await page.locator('.podium-criteria li').allTextContents();
    expect(criteria.map((line) => line.split(' (')[0])).toEqual([
      'Argument strength',
      'Relevance',
      'Persuasiveness',
      'Clarity',
    ]);
    expect(criteria[0]).toMatch(/^Argument strength \(weight 0\.4\) Scores: 1 = /);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);

    await page.fill('#podium-text', FIRST);
    await page.click('#podium-form button[type=submit]');
    await readStream(web, runId, runEnded, { timeoutMs: 600_000 });
    const events = readEvents(path.join(outDir, runId));
    const yara = events.filter((event) => event.type === 'turn-end' && event.agent === 'Yara');
    expect(yara.map((turn) => [turn.model, turn.text])).toEqual([['person', FIRST]]);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    await person.close();
  });
});
