import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenarioYaml } from '../helpers/scenario.js';
import { onlyRunDir } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });

function scenario(): { dir: string; file: string; out: string } {
  const dir = tempDir();
  const file = path.join(dir, 'debate.yaml');
  writeFileSync(file, testScenarioYaml({ rounds: 1 }));
  return { dir, file, out: path.join(dir, 'runs') };
}

const chatCalls = (server: { requests: Array<{ path: string }> }) =>
  server.requests.filter((request) => request.path === '/api/chat').length;

describe('an --output path that cannot be written', () => {
  it('run: a folder that does not exist is refused before the first model call, in one line, exit 2', async () => {
    const server = await mock();
    const { dir, file, out } = scenario();
    const output = path.join(dir, 'no-such-folder', 'result.md');
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--output', output]);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`--output ${output}: the folder ${path.dirname(output)} does not exist`);
    expect(result.stderr).not.toMatch(/unexpected error|ENOENT|\.tmp/);
    expect(chatCalls(server)).toBe(0);
    // Nothing was started: no run folder to clean up.
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);

    // A folder named as the file is refused the same way.
    mkdirSync(path.join(dir, 'a-folder'));
    const folder = await runAgora([
      'run',
      file,
      '--host',
      server.url,
      '--out',
      out,
      '--output',
      path.join(dir, 'a-folder'),
    ]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('is a folder; name a file to write');
    expect(chatCalls(server)).toBe(0);
  });

  it('demo: refused before the simulator is asked anything', async () => {
    const { dir, file, out } = scenario();
    const output = path.join(dir, 'missing', 'result.json');
    const result = await runAgora(['demo', file, '--out', out, '--output', output]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('does not exist');
    expect(result.stdout).toBe('');
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });

  it('export --html: a folder that does not exist is refused in one line, exit 2', async () => {
    const server = await mock();
    const { dir, file, out } = scenario();
    expect((await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet'])).code).toBe(0);
    const runId = path.basename(onlyRunDir(out));
    const output = path.join(dir, 'missing', 'run.html');
    const result = await runAgora(['export', runId, '--html', '--out', out, '--output', output]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`--output ${output}: the folder ${path.dirname(output)} does not exist`);
    expect(existsSync(path.dirname(output))).toBe(false);
  });
});
