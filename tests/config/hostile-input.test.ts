import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { testScenario } from '../helpers/scenario.js';

const CONFIG_ERROR = 3;
// A refusal must not wait for input: a hang or an unbounded read would end in the CLI helper's own
// time limit and fail the test. That limit guards against the hang only; it is no speed check.

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

/** YAML text of a valid scenario with `knowledge` lines added under background.knowledge. */
function scenarioWithKnowledge(knowledge: string[]): string {
  const text = stringify(testScenario({ extra: { background: { knowledge: {} } } }));
  return text.replace('knowledge: {}', `knowledge:\n${knowledge.map((line) => `    ${line}`).join('\n')}`);
}

describe('scenario files that are not plain, small YAML', () => {
  it('refuses a character device such as /dev/zero without reading it', async () => {
    const result = await runAgora(['validate', '/dev/zero']);
    expectConfigError(result, '/dev/zero');
    expect(result.stderr).toMatch(/\/dev\/zero: is not a regular file \(it is a character device\)/);
  });

  it('refuses a named pipe instead of waiting for a writer', async () => {
    const file = fifo();
    const result = await runAgora(['validate', file]);
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
    const result = await runAgora(['validate', file]);
    expectConfigError(result, file);
    expect(result.stderr).toMatch(/background\.files\[0\]: context file "notes\.md" is not a regular file/);
    // /dev/zero lies outside the scenario's folder; that refusal comes first and is enough.
    expect(result.stderr).toMatch(/background\.files\[1\]: context file "\/dev\/zero" is outside/);
    expect(result.stderr).toMatch(/background\.files\[2\]: context file "huge\.md" is 262145 bytes, above/);
  });

  it('refuses aliases that expand one large anchor many times', async () => {
    const big = 'a'.repeat(900 * 1024);
    const many = scenarioWithKnowledge([
      `big: &big "${big}"`,
      ...Array.from({ length: 99 }, (_, index) => `copy_${index}: *big`),
    ]);
    const file = write('aliases.yaml', many);
    const result = await runAgora(['validate', file]);
    expectConfigError(result, file);
    expect(result.stderr).toMatch(/aliases\.yaml:\d+:\d+: YAML aliases expand too much/);

    // Few aliases, but the expanded document is far larger than any scenario needs.
    const few = write('few.yaml', scenarioWithKnowledge([`big: &big "${big}"`, 'again: *big', 'more: *big']));
    const refused = await runAgora(['validate', few]);
    expectConfigError(refused, few);
    expect(refused.stderr).toMatch(/few\.yaml:\d+:\d+: with its YAML aliases expanded the scenario is over/);
  });

  it('reports a "billion laughs" document as a configuration error naming the file and line', async () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let level = 1; level < 9; level += 1) {
      const name = String.fromCharCode(97 + level);
      const previous = String.fromCharCode(96 + level);
      lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    const file = write('laughs.yaml', scenarioWithKnowledge(lines));
    const result = await runAgora(['validate', file]);
    expectConfigError(result, file);
    expect(result.stderr).toMatch(/laughs\.yaml:\d+:\d+: YAML aliases expand too much/);

    const unresolved = write('unresolved.yaml', 'topic: *nowhere\n');
    const missing = await runAgora(['validate', unresolved]);
    expectConfigError(missing, unresolved);
    expect(missing.stderr).toMatch(/unresolved\.yaml:1:8: YAML alias error: Unresolved alias/);
  });

  it('says plainly that lists nested ten thousand deep are nested too deep, with the file, line and fix', async () => {
    const nested = (depth: number) => `topic: x\nagents: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
    const files = [
      write('brackets.yaml', `topic: ${'['.repeat(10_000)}\n`),
      write('closed.yaml', nested(10_000)),
      // Indentation that keeps growing: one mapping inside the next, 300 levels deep.
      write(
        'indented.yaml',
        Array.from({ length: 300 }, (_, level) => `${' '.repeat(level)}level${level}:`).join('\n'),
      ),
    ];
    const result = await runAgora(['validate', ...files]);
    expect(result.code).toBe(CONFIG_ERROR);
    expect(result.stderr).not.toMatch(/call stack|\n\s+at /i);
    expect(result.stderr).toContain(
      `${files[0]}:1:71: lists and mappings are nested more than 64 levels deep here, too deep to read; a scenario needs only a few levels: look for "[" or "{" that are never closed, or indentation that keeps growing`,
    );
    expect(result.stderr).toMatch(/closed\.yaml:2:\d+: lists and mappings are nested more than 64 levels/);
    expect(result.stderr).toMatch(/indented\.yaml:65:\d+: lists and mappings are nested more than 64 levels/);
    // One message per file, not one per bracket.
    expect(result.stderr.match(/nested more than/g)).toHaveLength(3);

    // Nesting a scenario may well use, in brackets and in blocks, is read as before.
    const fine = write('fine.yaml', nested(20));
    const read = await runAgora(['validate', fine]);
    expect(read.stderr).not.toMatch(/nested more than/);
    expect(read.stderr).toMatch(/agents/);
  });

  it('refuses background text that cannot fit the model context window, naming the fix', async () => {
    const file = write(
      'long.yaml',
      scenarioWithKnowledge([`history: "${'The city council met again. '.repeat(1500)}"`]),
    );
    const result = await runAgora(['validate', file]);
    expectConfigError(result, file);
    expect(result.stderr).toMatch(
      /background: the topic, the background knowledge and context files come to about \d+ tokens, more than the 6912 a prompt can hold \(model_options\.context_window 8192, minus model_options\.max_tokens 1024/,
    );
    expect(result.stderr).toMatch(/raise model_options\.context_window/);
  });
});
