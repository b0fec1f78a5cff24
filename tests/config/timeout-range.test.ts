import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { testScenario } from '../helpers/scenario.js';

const CONFIG_ERROR = 3;
const USAGE_ERROR = 2;
const QUICK = { timeoutMs: 20_000 };

function write(name: string, text: string): string {
  const file = path.join(tempDir(), name);
  writeFileSync(file, text);
  return file;
}

describe.concurrent('time limits in seconds', () => {
  it('refuses request timeouts outside 1 to 86400 seconds, naming the field and the range', async () => {
    for (const value of [10_000_000, 0.5]) {
      const file = write(
        'timeout.yaml',
        stringify({ ...testScenario(), reliability: { request_timeout_seconds: value } }),
      );
      const result = await runAgora(['validate', file], QUICK);
      expect(result.code).toBe(CONFIG_ERROR);
      expect(result.stderr).toContain(file);
      expect(result.stderr).toMatch(
        /reliability\.request_timeout_seconds: must be a number of seconds from 1 to 86400/,
      );
    }
    const fractional = write(
      'fraction.yaml',
      stringify({ ...testScenario(), reliability: { request_timeout_seconds: 1.0005 } }),
    );
    expect((await runAgora(['validate', fractional], QUICK)).code).toBe(0);
  });

  it('refuses a formal statement time limit outside the same range', async () => {
    const file = write(
      'formal.yaml',
      stringify({
        format: 'formal',
        topic: 'Cities should ban cars',
        statements: { time_limit_seconds: 1e7 },
      }),
    );
    const result = await runAgora(['validate', file], QUICK);
    expect(result.code).toBe(CONFIG_ERROR);
    expect(result.stderr).toMatch(
      /formal\.yaml:\d+:\d+: statements\.time_limit_seconds: must be a number of seconds from 1 to 86400/,
    );
  });

  it('refuses a --timeout flag outside 1 to 86400 seconds with the usage code', async () => {
    const file = write('scenario.yaml', stringify(testScenario()));
    for (const value of ['10000000', '0.5', 'soon']) {
      const result = await runAgora(['run', file, '--timeout', value], QUICK);
      expect(result.code).toBe(USAGE_ERROR);
      expect(result.stderr).toMatch(/--timeout must be a number of seconds from 1 to 86400/);
    }
  });
});
