import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode, RunError } from '../../src/core/errors.js';
import { claimTournamentFolder } from '../../src/tournament/tournament-folder.js';
import { tempDir } from '../helpers/cli.js';

describe('a tournament’s folder', () => {
  it('is refused while another live process runs the tournament, and taken over from a dead one', async () => {
    const folder = path.join(tempDir(), 'cup');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' });
    try {
      const release = claimTournamentFolder(folder);
      release();
      writeFileSync(path.join(folder, 'run.lock'), `${other.pid}\n`);
      let refusal: unknown;
      try {
        claimTournamentFolder(folder);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(RunError);
      expect((refusal as RunError).exitCode).toBe(ExitCode.runLocked);
      expect((refusal as RunError).message).toContain(`is being run by process ${other.pid}`);
    } finally {
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
    }
    // Its owner gone, the lock is stale: taken over.
    const release = claimTournamentFolder(folder);
    expect(existsSync(path.join(folder, 'run.lock'))).toBe(true);
    release();
    expect(existsSync(path.join(folder, 'run.lock'))).toBe(false);
  });
});
