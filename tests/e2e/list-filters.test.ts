/** A filter value with a typo is refused with the valid values, instead of listing nothing. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgora, tempDir } from '../helpers/cli.js';

describe.concurrent('runs and leaderboard filters', () => {
  it('refuses an unknown --status and --format, listing the valid ones, with exit 2', async () => {
    const out = path.join(tempDir(), 'runs');
    const [status, format] = await Promise.all([
      runAgora(['runs', '--out', out, '--status', 'bogus']),
      runAgora(['runs', '--out', out, '--format', 'knockotu']),
    ]);
    expect(status.code).toBe(2);
    expect(status.stderr).toBe(
      'agora runs: --status must be one of running, completed, degraded, stopped, failed, interrupted, unstarted, starting, damaged; got "bogus"\n',
    );
    expect(format.code).toBe(2);
    expect(format.stderr).toBe(
      'agora runs: --format must be one of knockout, duel, formal, critique, council, truth; got "knockotu"\n',
    );
  });

  it('refuses a --batch that names no batch, in runs and leaderboard', async () => {
    const out = tempDir();
    for (const command of ['runs', 'leaderboard']) {
      const result = await runAgora([command, '--out', out, '--batch', 'bogus']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--batch "bogus" names no batch in .*; there are no batches there yet/);
      expect(result.stdout).toBe('');
    }
  });

  it('still accepts a valid status on an empty runs folder', async () => {
    const result = await runAgora(['runs', '--out', tempDir(), '--status', 'completed']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^No runs in .* match those filters\.\n$/);
  });
});
