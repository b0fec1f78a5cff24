/**
 * Time limits in seconds: the range a scenario's fields and `--timeout` accept. Each check starts
 * the CLI; the subprocesses have the helper's own time limit, which only guards against a hang:
 * on a busy machine starting the CLI can take many seconds, and that is not what these check.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { testScenario } from '../helpers/scenario.js';

const CONFIG_ERROR = 3;
const USAGE_ERROR = 2;

function write(name: string, text: string): string {
  const file = path.join(tempDir(), name);
  writeFileSync(file, text);
  return file;
}

describe('time limits in seconds', () => {
  it('refuses request timeouts outside 1 to 86400 seconds, naming the file, field and range, and takes fractions', async () => {
    const timeout = (value: number) =>
      write(
        `timeout-${value}.yaml`,
        stringify({ ...testScenario(), reliability: { request_timeout_seconds: value } }),
      );
    const [tooLong, tooShort, fractional] = [timeout(10_000_000), timeout(0.5), timeout(1.0005)];
    // One `validate` of three files: each is reported on its own.
    const result = await runAgora(['validate', tooLong, tooShort, fractional]);
    expect(result.code).toBe(CONFIG_ERROR);
    for (const file of [tooLong, tooShort]) {
      expect(result.stderr).toMatch(
        new RegExp(
          `${path.basename(file).replace('.', '\\.')}:\\d+:\\d+: reliability\\.request_timeout_seconds: must be a number of seconds from 1 to 86400`,
        ),
      );
    }
    expect(result.stdout).toContain(`ok ${fractional}:`);
    expect(result.stderr).not.toContain(fractional);
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
    const result = await runAgora(['validate', file]);
    expect(result.code).toBe(CONFIG_ERROR);
    expect(result.stderr).toMatch(
      /formal\.yaml:\d+:\d+: statements\.time_limit_seconds: must be a number of seconds from 1 to 86400/,
    );
  });

  it('refuses a --timeout flag outside 1 to 86400 seconds with the usage code', async () => {
    const file = write('scenario.yaml', stringify(testScenario()));
    for (const value of ['10000000', '0.5', 'soon']) {
      const result = await runAgora(['run', file, '--timeout', value]);
      expect(result.code).toBe(USAGE_ERROR);
      expect(result.stderr).toMatch(/--timeout must be a number of seconds from 1 to 86400/);
    }
  });
});
