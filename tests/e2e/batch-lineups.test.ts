import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });
const FAST = { attempts: 2, backoff_ms: 5, max_backoff_ms: 10 };

/** A folder with a one-round knockout and a council, as in `agora batch scenarios/`. */
function folder(): string {
  const dir = tempDir();
  writeFileSync(
    path.join(dir, 'a-knockout.yaml'),
    stringify({ ...testScenario({ rounds: 1 }), reliability: FAST }),
  );
  writeFileSync(
    path.join(dir, 'council-billing-database.yaml'),
    stringify({
      format: 'council',
      topic: 'Should we move billing to PostgreSQL?',
      seed: 5,
      reliability: FAST,
    }),
  );
  return dir;
}

describe('batch: model line-ups across formats', () => {
  it('applies line-ups to the formats with those sides and runs a council once per seed with its own models', async () => {
    const server = await mock();
    const dir = folder();
    const out = path.join(dir, 'runs');
    const result = await runAgora([
      'batch',
      dir,
      '--repeat',
      '2',
      '--concurrency',
      '4',
      '--parallel',
      '2',
      '--models',
      'x=llama3,y=mistral',
      '--models',
      'x=mistral,y=llama3',
      '--host',
      server.url,
      '--out',
      out,
      '--json',
    ]);
    expect(result.stderr).toContain(
      'council-billing-database.yaml: --models does not apply to the council format; run with its own models',
    );
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as {
      results: Array<{ scenarioFile: string; lineup: string | null; seed: number }>;
    };
    const byFile = (name: string) =>
      summary.results.filter((item) => path.basename(item.scenarioFile) === name);
    // Knockout: 2 line-ups × 2 seeds; council: 2 seeds with its own models.
    expect(byFile('a-knockout.yaml')).toHaveLength(4);
    expect(byFile('council-billing-database.yaml').map((item) => item.seed)).toEqual([5, 6]);
    const councils = await runAgora(['query', '--out', out, '--csv', 'SELECT models FROM debate_runs']);
    expect(councils.stdout.trim().split('\n').slice(1)).toEqual(['"llama3,mistral"', '"llama3,mistral"']);
    const knockouts = await runAgora([
      'query',
      '--out',
      out,
      '--csv',
      "SELECT DISTINCT models FROM runs WHERE format = 'knockout'",
    ]);
    expect(knockouts.stdout.trim().split('\n')).toHaveLength(2);
  });

  it('names the scenario file in an error about it', async () => {
    const server = await mock({ models: ['llama3'] });
    const dir = folder();
    const mixed = await runAgora(['batch', dir, '--models', 'x=llama3,critic=mistral', '--host', server.url]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(
      /a-knockout\.yaml: --models x=llama3,critic=mistral names roles a knockout scenario/,
    );
    const missing = await runAgora(['batch', dir, '--host', server.url, '--out', path.join(dir, 'runs')]);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/a-knockout\.yaml: .*mistral/);
  });
});
