import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { testScenario } from '../helpers/scenario.js';

const CONFIG_ERROR = 3;
/** A refusal must come at once: a hang or an unbounded read is what these tests guard against. */
const QUICK = { timeoutMs: 20_000 };

function write(name: string, text: string, dir = tempDir()): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

function fifo(dir = tempDir(), name = 'pipe.yaml'): string {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
}

function expectConfigError(result: { code: number | null; stderr: string }, file: string) {
  expect(result.code).toBe(CONFIG_ERROR);
  expect(result.stderr).toContain(file);
  expect(result.stderr).not.toMatch(/\n\s+at .+\(.*:\d+:\d+\)/); // no stack trace
}

describe.concurrent('scenario files that are not plain, small YAML', () => {
  it('refuses a character device such as /dev/zero without reading it', async () => {
    const result = await runAgora(['validate', '/dev/zero'], QUICK);
    expectConfigError(result, '/dev/zero');
    expect(result.stderr).toMatch(/\/dev\/zero: is not a regular file \(it is a character device\)/);
  });

  it('refuses a named pipe instead of waiting for a writer', async () => {
    const file = fifo();
    const result = await runAgora(['validate', file], QUICK);
    expectConfigError(result, file);
    expect(result.stderr).toMatch(/is not a regular file \(it is a named pipe\)/);
  });

  it('refuses a context file that is a named pipe, /dev/zero or too large', async () => {
    const dir = tempDir();
    fifo(dir, 'notes.md');
    write('huge.md', 'a'.repeat(256 * 1024 + 1), dir);
    const file = write(
      'scenario.yaml',
      stringify(testScenario({ extra: { background: { files: ['notes.md', '/dev/zero', 'huge.md'] } } })),
      dir,
    );
    const result = await runAgora(['validate', file], QUICK);
    expectConfigError(result, file);
    expect(result.stderr).toMatch(/background\.files\[0\]: context file "notes\.md" is not a regular file/);
    // /dev/zero lies outside the scenario's folder; that refusal comes first and is enough.
    expect(result.stderr).toMatch(/background\.files\[1\]: context file "\/dev\/zero" is outside/);
    expect(result.stderr).toMatch(/background\.files\[2\]: context file "huge\.md" is 262145 bytes, above/);
  });
});
