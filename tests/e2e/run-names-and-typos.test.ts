/**
 * Naming runs the way a user types them (a unique start of the id, `latest`, for every format) and
 * the help a typo gets: the command or flag probably meant, and the flag named as the source of a
 * model the server lacks.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';

const mock = useMockServers();

describe('a run named by the start of its id, or latest', () => {
  it('finds duel and council runs by a unique prefix and by latest, and refuses a prefix that fits several', async () => {
    const server = await mock();
    const out = path.join(tempDir(), 'runs');
    const run = (args: string[]) => runAgora([...args, '--host', server.url, '--out', out, '--quiet']);
    for (const id of ['alpha-one', 'alpha-two', 'beta-one']) {
      const started = await run([
        'run',
        '--format',
        'duel',
        '--topic',
        `Topic of ${id}`,
        '--rounds',
        '1',
        '--run-id',
        id,
      ]);
      expect(started.code, started.stderr).toBe(0);
    }
    const council = await run([
      'run',
      '--format',
      'council',
      '--topic',
      'Should the office open on Fridays?',
    ]);
    expect(council.code, council.stderr).toBe(0);

    const beta = await runAgora(['show', 'beta', '--out', out]);
    expect(beta.code, beta.stderr).toBe(0);
    expect(beta.stdout).toContain('Topic of beta-one');

    const latest = await runAgora(['show', 'latest', '--out', out, '--json']);
    expect(latest.code, latest.stderr).toBe(0);
    expect(JSON.parse(latest.stdout).runId).toMatch(/^debate_\d{8}_\d{6}_[a-z0-9]{3}$/);

    const councilId = JSON.parse(latest.stdout).runId as string;
    const exported = await runAgora(['export', 'debate_', '--html', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(existsSync(path.join(out, councilId, 'transcript.html'))).toBe(true);

    const both = await runAgora(['show', 'alpha', '--out', out]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/"alpha" is the start of 2 runs .*alpha-one, alpha-two.*type more of the id/);

    const resumed = await runAgora(['resume', 'latest', '--out', out, '--host', server.url]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`Run ${councilId} already completed`);

    const stopped = await runAgora(['stop', 'alpha-t', '--out', out]);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toContain(`No process is running ${path.join(out, 'alpha-two')}`);

    const none = await runAgora(['show', 'latest', '--out', path.join(tempDir(), 'empty')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/there are no runs in .* yet, so none is the latest/);
  }, 900_000);
});

describe('typos', () => {
  it('suggests the command meant by a misspelt one, with exit 2', async () => {
    const result = await runAgora(['rnu', 'scenarios/abortion.yaml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^agora: unknown command "rnu" \(did you mean run\?\)/);
  });

  it('suggests the flag meant by a misspelt one, in words of its own, with exit 2', async () => {
    const result = await runAgora(['run', 'scenarios/abortion.yaml', '--round', '2']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "agora run: Unknown option '--round' (did you mean --rounds?). Run `agora run --help` for the options.\n",
    );
  });

  it('names --models, not the scenario file, when a model it gave is missing on the server', async () => {
    const server = await mock({ models: ['llama3', 'mistral'] });
    const out = path.join(tempDir(), 'runs');
    const result = await runAgora(
      ['run', 'scenarios/abortion.yaml', '--models', 'x=llama2', '--host', server.url, '--out', out],
      {},
    );
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(
      'lacks llama2 (did you mean llama3, which the server has?), which --models x=llama2 asks for',
    );
    expect(result.stderr).toContain('`ollama pull llama2`, or change --models x=llama2');
    expect(result.stderr).not.toContain('abortion.yaml');
    expect(existsSync(out)).toBe(false);
  });

  it('names the model the server has that a misspelt one in the scenario probably meant', async () => {
    const server = await mock({ models: ['llama3', 'mistral'] });
    const dir = tempDir();
    cpSync('scenarios/context/abortion', path.join(dir, 'context', 'abortion'), { recursive: true });
    const scenario = readFileSync('scenarios/abortion.yaml', 'utf8').replaceAll(
      'model: mistral',
      'model: mistrall',
    );
    writeFileSync(path.join(dir, 'typo.yaml'), scenario);
    const out = path.join(dir, 'runs');
    const result = await runAgora(['run', 'typo.yaml', '--host', server.url, '--out', out], { cwd: dir });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('mistrall (did you mean mistral, which the server has?)');
    expect(result.stderr).toContain('typo.yaml');
    expect(existsSync(out)).toBe(false);
  });
});
