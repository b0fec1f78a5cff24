/**
 * The shipped scenarios raise none of their own warnings: they validate clean, and each runs clean
 * on the built-in simulator as a newcomer would run it (`npm run demo -- <scenario>`), as does
 * `--format duel --topic`. The mixed-providers scenario also runs against `agora mock-ollama`
 * started the way its own header says. Warnings about real problems still come.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { projectRoot, runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { testScenario } from '../helpers/scenario.js';

const SHIPPED = readdirSync(path.join(projectRoot, 'scenarios'))
  .filter((name) => name.endsWith('.yaml'))
  .sort()
  .map((name) => `scenarios/${name}`);

/** The simulator at once, without simulated waiting: what is checked is what the run says. */
const demo = (...args: string[]) =>
  runAgora(['demo', ...args, '--profile', 'instant', '--speed', '0', '--out', path.join(tempDir(), 'runs')]);

describe('the shipped scenarios', () => {
  it('validate without a warning', async () => {
    expect(SHIPPED.length).toBeGreaterThanOrEqual(10);
    const result = await runAgora(['validate', ...SHIPPED]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toMatch(/warning/i);
  });

  it.each(SHIPPED)('%s runs clean on the simulator: exit 0, nothing on stderr', async (scenario) => {
    const result = await demo(scenario);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('--format duel --topic runs clean on the simulator, its judge on a model no debater uses', async () => {
    const result = await demo('--format', 'duel', '--topic', 'Tea is better than coffee', '--rounds', '2');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('mixed-providers runs against `agora mock-ollama` started as its header says', async () => {
    const file = path.join(projectRoot, 'scenarios', 'mixed-providers.yaml');
    const header = readFileSync(file, 'utf8');
    const models = /mock-ollama --port \d+ --models (\S+)/.exec(header)?.[1];
    expect(models).toBeDefined();
    const mock = startAgora(['mock-ollama', '--port', '0', '--models', models as string]);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        mock.child.stdout?.on('data', (chunk) => {
          seen += chunk;
          const found = /listening on (http:\/\/\S+) /.exec(seen);
          if (found?.[1]) resolve(found[1]);
        });
        mock.result.then((ended) => reject(new Error(`mock-ollama ended: ${ended.stderr}`)), reject);
      });
      // The header's port is whatever the reader picks; this test takes a free one.
      const result = await runAgora(
        ['run', file, '--host', url, '--out', path.join(tempDir(), 'runs'), '--quiet'],
        { env: { AGORA_PROVIDER_LLAMA_SERVER_URL: `${url}/v1` } },
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    } finally {
      mock.child.kill('SIGTERM');
      await mock.result;
    }
  });

  it('still warns about a rotation limit the file sets above what its panel allows', async () => {
    const file = path.join(tempDir(), 'limit.yaml');
    writeFileSync(file, stringify(testScenario({ yCount: 3, limit: 3 })));
    const result = await runAgora(['validate', file]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'rotation.limit: is 3 but with 3 Y agents at most 2 rotations can happen',
    );
    const unset = testScenario({ yCount: 3 });
    delete (unset as { rotation?: unknown }).rotation;
    writeFileSync(file, stringify(unset));
    const quiet = await runAgora(['validate', file]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });
});
