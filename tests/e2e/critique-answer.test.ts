import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { onlyRunDir } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });

function critique(): { file: string; dir: string } {
  const dir = tempDir();
  const file = path.join(dir, 'critique.yaml');
  writeFileSync(
    file,
    stringify({
      format: 'critique',
      topic: 'Design a cache for product pages',
      seed: 3,
      agents: [
        { name: 'Ada', role: 'architect', model: 'llama3' },
        { name: 'Per', role: 'performance', model: 'mistral' },
      ],
      judge: { model: 'llama3' },
      rounds: 1,
      reliability: { attempts: 2, backoff_ms: 5, max_backoff_ms: 10 },
    }),
  );
  return { file, dir };
}

/** The solution as `--output solution.md` writes it: what the terminal must show whole. */
async function referenceSolution(file: string, dir: string, host: string): Promise<string> {
  const output = path.join(dir, 'reference.md');
  const args = ['run', file, '--host', host, '--out', path.join(dir, 'reference'), '--output', output];
  expect((await runAgora([...args, '--json'])).code).toBe(0);
  return readFileSync(output, 'utf8');
}

describe('critique: the answer on stdout', () => {
  it('prints the whole solution after the table, only the solution with --quiet, and the solution in --json', async () => {
    const server = await mock();
    const { file, dir } = critique();
    const solution = await referenceSolution(file, dir, server.url);
    expect(solution.split('\n').length).toBeGreaterThan(8);

    const shown = await runAgora(['run', file, '--host', server.url, '--out', path.join(dir, 'shown')]);
    expect(shown.code).toBe(0);
    const table = shown.stdout.indexOf('Totals:');
    expect(table).toBeGreaterThan(0);
    expect(shown.stdout.indexOf(solution)).toBeGreaterThan(table);

    const quietOut = path.join(dir, 'quiet');
    const quiet = await runAgora(['run', file, '--host', server.url, '--out', quietOut, '--quiet']);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe(solution);
    expect(quiet.stderr).toContain(`Run ${path.basename(onlyRunDir(quietOut))}`);
    expect(quiet.stderr).toContain(`Transcript: ${path.join(onlyRunDir(quietOut), 'transcript.md')}`);

    const json = await runAgora([
      'run',
      file,
      '--host',
      server.url,
      '--out',
      path.join(dir, 'json'),
      '--json',
    ]);
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout) as { status: string; solution: string };
    expect(result.status).toBe('completed');
    expect(result.solution).toBe(solution);
  });

  it('with --output saves the solution instead of printing it, and says where on stderr', async () => {
    const server = await mock();
    const { file, dir } = critique();
    const output = path.join(dir, 'solution.md');
    const result = await runAgora([
      'run',
      file,
      '--host',
      server.url,
      '--out',
      path.join(dir, 'saved'),
      '--output',
      output,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const solution = readFileSync(output, 'utf8');
    expect(solution.split('\n').length).toBeGreaterThan(8);
    // The report is still on stdout; the solution is not printed after it.
    expect(result.stdout).toContain('Totals:');
    const firstLine = solution.split('\n').find((line) => line.trim().length > 20) ?? '';
    expect(result.stdout).not.toContain(firstLine);
    expect(result.stderr).toContain(`Saved debate to ${output}\n`);
    expect(result.stdout).not.toContain(output);

    // With --quiet, stdout carries nothing at all: the answer went to the file.
    const quietOutput = path.join(dir, 'quiet-solution.md');
    const quiet = await runAgora([
      'run',
      file,
      '--host',
      server.url,
      '--out',
      path.join(dir, 'quiet'),
      '--output',
      quietOutput,
      '--quiet',
    ]);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe('');
    expect(readFileSync(quietOutput, 'utf8')).toBe(solution);
    expect(quiet.stderr).toContain(`Saved debate to ${quietOutput}\n`);
  });
});
