/**
 * A debate started from the new-debate form without a seed: the seed is drawn when the form is
 * read, so the run id, the worker's command line and the page all name the same seed.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { pageToken, postJson, useViewers } from '../helpers/viewer.js';

const mock = useMockServers();
const viewer = useViewers();

/** A viewer whose debates are not started but recorded: the command line each would get. */
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
  return { web, token: await pageToken(web), launched };
}

describe('the new-debate form without a seed', () => {
  it('gives the run an id that ends with the seed drawn at random, and passes that seed to the worker', async () => {
    const { web, token, launched } = await recordingViewer();
    const seeds = new Set<number>();
    for (const attempt of [1, 2]) {
      const response = await postJson(
        web,
        '/api/runs',
        { format: 'knockout', topic: `Should cities ban cars? (${attempt})`, seed: '' },
        token,
      );
      expect(response.status).toBe(202);
      const started = (await response.json()) as { runId: string; notices: string[] };
      const args = launched.at(-1) ?? [];
      const given = args.find((arg) => arg.startsWith('--seed='));
      expect(given, 'the worker is given the drawn seed').toBeDefined();
      const seed = Number(given?.slice('--seed='.length));
      expect(Number.isSafeInteger(seed)).toBe(true);
      expect(started.runId).toMatch(new RegExp(`-s${seed}$`));
      expect(started.notices).toContain(
        `Seed ${seed} was drawn at random; give it again to repeat this debate.`,
      );
      seeds.add(seed);
    }
    // Two draws (not the fixed base seed every time).
    expect(seeds.size).toBe(2);
  });

  it('keeps a seed that was given, and draws one in place of a seed that is not a number', async () => {
    const { web, token, launched } = await recordingViewer();
    const given = await postJson(
      web,
      '/api/runs',
      { format: 'duel', topic: 'Tea or coffee?', seed: '7' },
      token,
    );
    expect(((await given.json()) as { runId: string }).runId).toMatch(/-s7$/);
    expect(launched.at(-1)?.filter((arg) => arg.startsWith('--seed='))).toEqual(['--seed=7']);

    const wrong = await postJson(
      web,
      '/api/runs',
      { format: 'duel', topic: 'Tea or milk?', seed: 'x' },
      token,
    );
    const started = (await wrong.json()) as { runId: string; notices: string[] };
    expect(started.notices[0]).toBe('Seed "x" is not a whole number: one is drawn at random.');
    const drawn = launched
      .at(-1)
      ?.find((arg) => arg.startsWith('--seed='))
      ?.slice('--seed='.length);
    expect(started.runId).toMatch(new RegExp(`-s${drawn}$`));
  });
});
