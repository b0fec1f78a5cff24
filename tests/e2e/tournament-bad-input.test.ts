/**
 * Bad input to `agora tournament`: one clear message each, the exit code of the project's scheme,
 * and nothing started: no tournament folder is made.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';

const mock = useMockServers();

function setup(motions: string, name = 'motions.txt') {
  const dir = tempDir();
  writeFileSync(path.join(dir, name), motions);
  return { dir, out: path.join(dir, 'cup'), file: name };
}

async function refused(args: string[], motions: string, name?: string) {
  const { dir, out, file } = setup(motions, name);
  const result = await runAgora(['tournament', '--motions', file, '--out', out, ...args], { cwd: dir });
  // Nothing started, nothing written.
  expect(existsSync(out)).toBe(false);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return result;
}

const TWO = 'Tea is better than coffee\nTrains beat planes\n';

describe('agora tournament refuses bad input before anything starts', () => {
  it('fewer than two models', async () => {
    const result = await refused(['--demo', '--models', 'm1'], TWO);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--models needs at least two models');
  });

  it('a model the server lacks, with the closest name it has', async () => {
    const server = await mock({ models: ['llama3', 'mistral', 'qwen2.5'] });
    const result = await refused(['--host', server.url, '--models', 'llama3,mistrall,qwen2.5'], TWO);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('mistrall (did you mean mistral, which the server has?)');
    expect(result.stderr).toContain('--models llama3,mistrall,qwen2.5');
  });

  it('an empty motions file', async () => {
    const result = await refused(['--demo', '--models', 'm1,m2,m3'], '# nothing yet\n\n');
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('motions.txt:1:1: holds no motion');
  });

  it('a malformed YAML motions file, with line and column', async () => {
    const result = await refused(
      ['--demo', '--models', 'm1,m2,m3'],
      '- motion: Tea is better than coffee\n- motion: Trains beat planes\n  positon: { a: Trains, b: Planes }\n',
      'motions.yaml',
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('motions.yaml:3:3: [1].positon: unknown field "positon"');
  });

  it('a YAML syntax error, with line and column', async () => {
    const result = await refused(
      ['--demo', '--models', 'm1,m2,m3'],
      '- motion: "Tea is better\n- x\n',
      'motions.yml',
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/motions\.yml:\d+:\d+: YAML syntax error/);
  });

  it('a duplicate motion', async () => {
    const result = await refused(
      ['--demo', '--models', 'm1,m2,m3'],
      'Tea is better than coffee\nTrains beat planes\n  tea is better than coffee.\n',
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('motions.txt:3:3: this motion is the one on line 1 again');
  });

  it('a budget below the number of models', async () => {
    const result = await refused(['--demo', '--models', 'm1,m2,m3,m4', '--budget', '3'], TWO);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--budget 3 is below the number of models (4)');
  });

  it('a judge rule that leaves no judge', async () => {
    const two = await refused(['--demo', '--models', 'llama3,mistral'], TWO);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('no judge is left for llama3 against mistral');
    const own = await refused(['--demo', '--models', 'llama3,mistral', '--judges', 'mistral'], TWO);
    expect(own.code).toBe(2);
    expect(own.stderr).toContain('no judge is left for llama3 against mistral');
  });

  it('--database with the flags that belong to its workers, or with --demo', async () => {
    const url = 'postgres://agora@127.0.0.1:1/agora';
    const demo = await refused(['--demo', '--models', 'm1,m2,m3', '--database', url], TWO);
    expect(demo.code).toBe(2);
    expect(demo.stderr).toContain('leave out --database');
    const host = await refused(
      ['--models', 'm1,m2,m3', '--database', url, '--host', 'http://127.0.0.1:2', '--parallel', '2'],
      TWO,
    );
    expect(host.code).toBe(2);
    expect(host.stderr).toContain('leave out --host, --parallel here and give it to each `agora worker`');
    const knockout = await refused(['--models', 'm1,m2,m3', '--database', url, '--format', 'knockout'], TWO);
    expect(knockout.code).toBe(2);
    expect(knockout.stderr).toContain('--format knockout is not available with --database');
  });

  it('--database naming a database out of reach', async () => {
    const result = await refused(
      ['--models', 'm1,m2,m3', '--database', 'postgres://agora:pw@127.0.0.1:1/agora'],
      TWO,
    );
    expect(result.code).toBe(11);
    expect(result.stderr).toContain('cannot reach the database at postgres://agora:***@127.0.0.1:1/agora');
    expect(result.stderr).not.toContain(':pw@');
  });
});
