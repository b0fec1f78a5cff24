import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });

/** A one-round knockout scenario without a seed. */
function unseeded(): { file: string; dir: string } {
  const dir = tempDir();
  const { seed: _seed, ...scenario } = testScenario({ rounds: 1 });
  const file = path.join(dir, 'unseeded.yaml');
  writeFileSync(file, stringify(scenario));
  return { file, dir };
}

const seedOf = (runDir: string) => (readEvents(runDir)[0]?.scenario as { seed?: number } | undefined)?.seed;
const statements = (runDir: string) =>
  readEvents(runDir)
    .filter((event) => event.type === 'turn-end')
    .map((event) => event.text);

describe('seeds', () => {
  it('draws a fresh seed per run without one, shows and records it, and --seed repeats the run', async () => {
    const server = await mock();
    const { file, dir } = unseeded();
    const seeds: number[] = [];
    for (const index of [1, 2, 3]) {
      const out = path.join(dir, `runs-${index}`);
      const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
      expect(result.code).toBe(0);
      const shown = /Seed: (\d+) \(random; --seed (\d+) repeats this run\)/.exec(
        result.stdout + result.stderr,
      );
      expect(shown?.[1]).toBe(shown?.[2]);
      const seed = Number(shown?.[1]);
      expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32).toBe(true);
      // The run's log holds the seed it used.
      expect(seedOf(onlyRunDir(out))).toBe(seed);
      seeds.push(seed);
    }
    expect(new Set(seeds).size).toBe(3);

    const first = onlyRunDir(path.join(dir, 'runs-1'));
    const again = path.join(dir, 'again');
    const repeated = await runAgora([
      'run',
      file,
      '--host',
      server.url,
      '--out',
      again,
      '--quiet',
      '--seed',
      String(seeds[0]),
    ]);
    expect(repeated.code).toBe(0);
    expect(repeated.stdout + repeated.stderr).toContain(`Seed: ${seeds[0]}\n`);
    expect(seedOf(onlyRunDir(again))).toBe(seeds[0]);
    expect(statements(onlyRunDir(again))).toEqual(statements(first));
  });

  it('validate says when the seed is drawn per run', async () => {
    const { file, dir } = unseeded();
    const seeded = path.join(dir, 'seeded.yaml');
    writeFileSync(seeded, stringify(testScenario({ seed: 7 })));
    const result = await runAgora(['validate', file, seeded]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`ok ${file}: knockout`);
    expect(result.stdout).toMatch(/unseeded\.yaml: .*\n {3}seed: random per run\n/);
    expect(result.stdout).toMatch(/seeded\.yaml: .*\n {3}seed: 7\n/);
  });

  it('keeps a batch deterministic: a scenario without a seed runs with the plan seeds, the same on a re-run', async () => {
    const server = await mock();
    const { file, dir } = unseeded();
    const out = path.join(dir, 'runs');
    const args = ['batch', file, '--repeat', '2', '--host', server.url, '--out', out];
    expect((await runAgora(args)).code).toBe(0);
    const seeds = await runAgora(['query', '--out', out, '--csv', 'SELECT seed FROM runs ORDER BY seed']);
    expect(seeds.stdout.trim().split('\n').slice(1)).toEqual(['42', '43']);
    const rerun = await runAgora(args);
    expect(rerun.code).toBe(0);
    const after = await runAgora(['query', '--out', out, '--csv', 'SELECT seed FROM runs ORDER BY seed']);
    expect(after.stdout).toBe(seeds.stdout);
  });
});
