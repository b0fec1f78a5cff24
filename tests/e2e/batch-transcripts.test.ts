import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { testScenario } from '../helpers/scenario.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Fields of a transcript that are real time, not content (the log position is a hash of lines with their times). */
const CLOCK_FIELDS = new Set(['realMs', 'startedAt', 'updatedAt', 'logPosition']);

/** Each run's transcript.json without its real-time fields, by the run's seed. */
function transcripts(out: string): Map<number, string> {
  const found = new Map<number, string>();
  for (const name of readdirSync(out)) {
    const file = path.join(out, name, 'transcript.json');
    if (!existsSync(file)) continue;
    const transcript = JSON.parse(readFileSync(file, 'utf8')) as { seed: number };
    found.set(
      transcript.seed,
      JSON.stringify(transcript, (key, value) => (CLOCK_FIELDS.has(key) ? undefined : value)),
    );
  }
  return found;
}

/** The most chat requests the server was handling at once. */
function peakConcurrency(server: MockOllama): number {
  const edges = server.requests
    .filter((request) => request.path === '/api/chat' && request.finishedAt !== undefined)
    .flatMap((request) => [
      { at: request.receivedAt, delta: 1 },
      { at: request.finishedAt as number, delta: -1 },
    ])
    .sort((a, b) => a.at - b.at || a.delta - b.delta);
  let current = 0;
  let peak = 0;
  for (const edge of edges) {
    current += edge.delta;
    peak = Math.max(peak, current);
  }
  return peak;
}

describe('a debate in a batch', () => {
  it('has the same transcript run alone as run at once with three others', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'knockout.yaml'), stringify(testScenario({ rounds: 2 })));
    const batch = async (concurrency: number) => {
      // The gpu profile, paced: the four debates' calls overlap and the gate reorders them.
      const server = await startMockOllama({ models: ['llama3', 'mistral'], profile: 'gpu', speed: 0.02 });
      servers.push(server);
      const out = path.join(dir, `runs-${concurrency}`);
      const result = await runAgora([
        'batch',
        path.join(dir, 'knockout.yaml'),
        '--repeat',
        '4',
        '--concurrency',
        String(concurrency),
        '--parallel',
        '4',
        '--host',
        server.url,
        '--out',
        out,
        '--json',
      ]);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ completed: 4, failed: 0 });
      // Four at once on a host that takes four calls: each debate sends one at a time (decision 023).
      const share = ', each debate at most 1 call at once';
      if (concurrency === 4) expect(result.stderr).toContain(share);
      else expect(result.stderr).not.toContain(share);
      return { runs: transcripts(out), peak: peakConcurrency(server) };
    };
    const alone = await batch(1);
    const together = await batch(4);
    expect(alone.runs.size).toBe(4);
    expect(together.peak).toBeGreaterThan(alone.peak);
    expect([...together.runs.keys()].sort()).toEqual([...alone.runs.keys()].sort());
    for (const [seed, transcript] of alone.runs) expect(together.runs.get(seed)).toBe(transcript);
  });
});
