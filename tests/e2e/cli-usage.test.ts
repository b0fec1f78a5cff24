/** What a new user types first: --help, --version, and flags with values out of range. */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot, runAgora, tempDir } from '../helpers/cli.js';

/** A few commands through the real CLI; every command's text is checked in tests/unit/command-help.test.ts. */
const COMMANDS = ['run', 'debate', 'batch', 'runs'];

describe('help and version', () => {
  it('prints each command its own usage for --help and -h, with exit 0', async () => {
    const results = await Promise.all(
      COMMANDS.map((command) => runAgora([command, command === 'batch' ? '-h' : '--help'])),
    );
    for (const [at, result] of results.entries()) {
      const command = COMMANDS[at] as string;
      expect(result.code, command).toBe(0);
      expect(result.stderr, command).toBe('');
      expect(result.stdout, command).toContain(`Usage: agora ${command === 'debate' ? 'run' : command}`);
    }
    const run = results[0]?.stdout ?? '';
    expect(run).toMatch(/^ {2}--rounds N +number of rounds, 1 to 50/m);
    expect(run).toMatch(/^ {2}--host URL /m);
  });

  it('prints the version from package.json for --version and version', async () => {
    const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
    for (const argv of [['--version'], ['version']]) {
      const result = await runAgora(argv);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`agora ${version}\n`);
    }
  });
});

describe('flag values', () => {
  it('reads --seed -1 as --seed=-1: both reach the server check (exit 4, not a usage error)', async () => {
    for (const seed of [['--seed', '-1'], ['--seed=-1']]) {
      const result = await runAgora(['run', 'scenarios/abortion.yaml', ...seed]);
      expect(result.stderr).not.toMatch(/ambiguous/);
      expect(result.code).toBe(4);
    }
  });

  it('refuses --rounds outside 1 to 50 with exit 2, in both spellings, naming the command once', async () => {
    const results = await Promise.all(
      [['--rounds', '1000'], ['--rounds', '-1'], ['--rounds=-1'], ['--rounds', '0']].map((rounds) =>
        runAgora(['run', 'scenarios/abortion.yaml', ...rounds]),
      ),
    );
    for (const result of results) {
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^agora run: --rounds must be a whole number from 1 to 50, got "/);
    }
  });

  it('names the command once in a usage error', async () => {
    const result = await runAgora(['run', '--bogus']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^agora run: Unknown option '--bogus'/);
    expect(result.stderr).toContain('Run `agora run --help` for the options.');
    const batch = await runAgora(['batch']);
    expect(batch.stderr).toMatch(/^agora batch: name scenario files or folders/);
  });
});

describe('counts in words', () => {
  it('says "1 round", not "1 rounds", at the start and in the result', async () => {
    const result = await runAgora([
      'demo',
      '--rounds',
      '1',
      '--speed',
      '0',
      '--out',
      path.join(tempDir(), 'runs'),
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Stops at: 1 round (or the rotation rules)');
    expect(result.stdout).toMatch(/Rounds debated: 1 of 1; rotations: 0\./);
    expect(result.stdout).not.toMatch(/\b1 rounds\b/);
  }, 900_000);
});

describe('the agora command', () => {
  it('runs from a checkout after npm ci, with nothing compiled', async () => {
    // A checkout as `npm ci` leaves it: the sources and node_modules, and no dist/.
    const checkout = tempDir();
    mkdirSync(path.join(checkout, 'bin'));
    copyFileSync(path.join(projectRoot, 'bin', 'agora.js'), path.join(checkout, 'bin', 'agora.js'));
    for (const name of ['src', 'node_modules', 'package.json', 'scenarios']) {
      symlinkSync(path.join(projectRoot, name), path.join(checkout, name));
    }
    const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
    const agora = (args: string[]) =>
      promisify(execFile)(process.execPath, [path.join(checkout, 'bin', 'agora.js'), ...args], {
        cwd: tempDir(),
      });
    expect((await agora(['--version'])).stdout).toBe(`agora ${version}\n`);
    const listed = await agora(['runs', '--out', path.join(tempDir(), 'runs')]);
    expect(listed.stdout).toMatch(/^No runs in /);
    expect(listed.stderr).toBe('');
  });
});
