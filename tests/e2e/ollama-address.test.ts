/** An Ollama address with a path: `/api` (copied from an API example) is dropped; another path is named. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';

const mock = useMockServers();

describe('an Ollama address with a path', () => {
  it('drops a trailing /api with a warning, and the run goes ahead', async () => {
    const server = await mock();
    const out = path.join(tempDir(), 'runs');
    const result = await runAgora([
      'run',
      'scenarios/abortion.yaml',
      '--rounds',
      '1',
      '--quiet',
      '--out',
      out,
      '--host',
      `${server.url}/api`,
    ]);
    expect(result.stderr).toContain(`warning: the Ollama address ${server.url}/api ends in /api`);
    expect(result.code).toBe(0);
  }, 900_000);

  it('says an address with another path has no Ollama API, and never calls it a model', async () => {
    const server = await mock();
    const result = await runAgora(['run', 'scenarios/abortion.yaml', '--host', `${server.url}/ollama`]);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`${server.url}/ollama has no Ollama API (404 Not Found)`);
    expect(result.stderr).toContain('without a path such as /api');
    expect(result.stderr).not.toMatch(/the model/);
  }, 900_000);
});
