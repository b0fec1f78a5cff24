/**
 * The new-debate form offers a model for each side of a two-sided format (Position X and Y, side
 * A and B, a formal debate's two debaters) beside the model for every agent, and hides them for the
 * formats without two sides.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium, mustRunBrowserTests } from '../helpers/browser.js';
import { tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { pageToken, postJson, useViewers } from '../helpers/viewer.js';

const mock = useMockServers({ models: ['llama3', 'mistral', 'qwen2.5'] });
const viewer = useViewers();

/** A viewer whose launcher only records the worker's arguments. */
async function recordingViewer() {
  const server = await mock();
  const launched: string[][] = [];
  const web = await viewer({
    outDir: tempDir(),
    ollamaHost: server.url,
    launcher: {
      launch(args) {
        launched.push(args);
        return -1;
      },
    },
  });
  return { web, launched, token: await pageToken(web) };
}

const modelsArgument = (args: string[] | undefined) => {
  const at = args?.indexOf('--models') ?? -1;
  return at < 0 ? undefined : args?.[at + 1];
};

describe('the new-debate form: a model per side', () => {
  it("starts a knockout with Position X's and Position Y's models, and a duel with side B's in place of the one for every agent", async () => {
    const { web, launched, token } = await recordingViewer();
    const knockout = await postJson(
      web,
      '/api/runs',
      {
        format: 'knockout',
        topic: 'Should cities ban cars?',
        model_first: 'mistral',
        model_second: 'qwen2.5',
      },
      token,
    );
    expect(knockout.status).toBe(202);
    expect(modelsArgument(launched.at(-1))).toBe('x=mistral,y=qwen2.5');

    const duel = await postJson(
      web,
      '/api/runs',
      { format: 'duel', topic: 'Tea or coffee?', models: 'all=llama3', model_second: 'mistral' },
      token,
    );
    expect(duel.status).toBe(202);
    expect(modelsArgument(launched.at(-1))).toBe('all=llama3,b=mistral');

    const formal = await postJson(
      web,
      '/api/runs',
      { format: 'formal', topic: 'Cities should ban cars', model_first: 'llama3', model_second: 'mistral' },
      token,
    );
    expect(formal.status).toBe(202);
    expect(modelsArgument(launched.at(-1))).toBe('a=llama3,b=mistral');
  });

  it('says a format without two sides ignores the models per side', async () => {
    const { web, launched, token } = await recordingViewer();
    const response = await postJson(
      web,
      '/api/runs',
      { format: 'critique', topic: 'Design a cache', model_first: 'mistral' },
      token,
    );
    expect(response.status).toBe(202);
    const started = (await response.json()) as { notices: string[] };
    expect(started.notices).toContain(
      'A critique debate has no two sides, so the models per side are ignored.',
    );
    expect(modelsArgument(launched.at(-1))).toBeUndefined();
  });

  it("refuses a side's model field holding a line-up, which would move the judge's model too", async () => {
    const { web, launched, token } = await recordingViewer();
    for (const [name, model] of [
      ['model_second', 'llama3,judge=mistral'],
      ['model_first', 'judge=mistral'],
      ['model_first', 'llama3 mistral'],
    ] as const) {
      const response = await postJson(
        web,
        '/api/runs',
        { format: 'duel', topic: 'Tea or coffee?', [name]: model },
        token,
      );
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toContain(
        `${name} (the ${name === 'model_first' ? 'first' : 'second'} side's model) must be one model name, such as llama3:8b; got "${model}"`,
      );
    }
    expect(launched).toEqual([]);
  });

  it('refuses a model per side that the server does not have', async () => {
    const { web, token } = await recordingViewer();
    const response = await postJson(
      web,
      '/api/runs',
      { format: 'knockout', topic: 'Should cities ban cars?', model_second: 'no-such-model' },
      token,
    );
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.text()).toContain('no-such-model');
  });
});

describe.skipIf(!chromiumPath && !mustRunBrowserTests)('the new-debate form in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("names the chosen format's sides, offers the server's models for each, and hides them for a critique", async () => {
    const { web } = await recordingViewer();
    const page = await browser.newPage({ viewport: { width: 390, height: 900 } });
    await page.goto(`${web.url}/new`);
    expect(await page.isVisible('#side-models')).toBe(true);
    expect(await page.textContent('#model_first_label')).toBe('Model for Position X');
    expect(await page.textContent('#model_second_label')).toBe('Model for Position Y (every Y debater)');
    const offered = await page.$$eval('#model_second option', (options) =>
      options.map((option) => (option as unknown as { value: string }).value),
    );
    expect(offered).toEqual(['', 'llama3:latest', 'mistral:latest', 'qwen2.5:latest']);
    await page.selectOption('#format', 'duel');
    expect(await page.textContent('#model_first_label')).toBe('Model for side A');
    expect(await page.textContent('#model_second_label')).toBe('Model for side B');
    await page.selectOption('#model_second', 'mistral:latest');
    await page.selectOption('#format', 'critique');
    expect(await page.isVisible('#side-models')).toBe(false);
    expect(await page.inputValue('#model_second')).toBe('');
    await page.close();
  });
});
