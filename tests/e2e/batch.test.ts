import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type MockOllama, type ScriptRule, startMockOllama } from '../../src/mock-ollama/index.js';
import { projectRoot, runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { testScenario } from '../helpers/scenario.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function mock(script: ScriptRule[] = [], speed = 0.02) {
  const server = await startMockOllama({ models: ['llama3', 'mistral'], profile: 'gpu', speed, script });
  servers.push(server);
  return server;
}

const FAST = {
  attempts: 2,
  backoff_ms: 5,
  max_backoff_ms: 10,
  request_timeout_seconds: 60,
  max_consecutive_failures: 2,
};

/** A folder with a 2-round knockout scenario and a 2-round duel. */
function scenarios(): { dir: string; out: string } {
  const dir = tempDir();
  writeFileSync(
    path.join(dir, 'a-knockout.yaml'),
    stringify({ ...testScenario({ rounds: 2 }), reliability: FAST }),
  );
  writeFileSync(
    path.join(dir, 'b-duel.yaml'),
    stringify({
      format: 'duel',
      topic: 'Tea is better than coffee',
      max_rounds: 2,
      debaters: { a: { model: 'llama3' }, b: { model: 'mistral' } },
      judge: { model: 'llama3' },
      stop: { judge_early_stop: false },
      reliability: FAST,
    }),
  );
  return { dir, out: path.join(dir, 'runs') };
}

/** The most chat requests the server was ever handling at once. */
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

describe('agora batch', () => {
  it('runs every combination side by side, never over the per-host limit, and indexes every debate', async () => {
    const server = await mock();
    const { dir, out } = scenarios();
    const result = await runAgora([
      'batch',
      dir,
      '--seeds',
      '1,2',
      '--concurrency',
      '3',
      '--parallel',
      '1',
      '--host',
      server.url,
      '--out',
      out,
      '--json',
    ]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { batchId: string; completed: number; debates: number };
    expect(summary).toMatchObject({ debates: 4, completed: 4 });
    expect(peakConcurrency(server)).toBe(1);
    expect(existsSync(path.join(out, 'batches', summary.batchId, 'batch-summary.json'))).toBe(true);

    const count = await runAgora([
      'query',
      '--out',
      out,
      '--json',
      'SELECT COUNT(*) AS n FROM runs WHERE batch_id = ?'.replace('?', `'${summary.batchId}'`),
    ]);
    expect(JSON.parse(count.stdout)).toEqual([{ n: 4 }]);
    const turns = await runAgora(['query', '--out', out, '--csv', 'SELECT COUNT(*) FROM turns']);
    expect(Number(turns.stdout.trim().split('\n')[1])).toBeGreaterThan(8);
    for (const write of ['DELETE FROM runs', 'SELECT 1; DELETE FROM runs', 'PRAGMA user_version = 7']) {
      const refused = await runAgora(['query', '--out', out, write]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/statement/);
    }
    const check = await runAgora(['reindex', '--check', '--out', out]);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/matches the event logs/);

    const duels = await runAgora(['runs', '--out', out, '--format', 'duel', '--json']);
    expect((JSON.parse(duels.stdout) as Array<{ format: string }>).map((run) => run.format)).toEqual([
      'duel',
      'duel',
    ]);
    const inBatch = await runAgora([
      'runs',
      '--out',
      out,
      '--batch',
      summary.batchId,
      '--status',
      'completed',
      '--json',
    ]);
    expect(JSON.parse(inBatch.stdout)).toHaveLength(4);
    for (const command of ['runs', 'leaderboard']) {
      const typo = await runAgora([command, '--out', out, '--batch', `${summary.batchId}x`]);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain(`names no batch in ${out}; batches there: ${summary.batchId}\n`);
    }
  });

  it('allows more calls at once when the server has more slots', async () => {
    // Every answer takes 200 ms more, so calls of debates running at once overlap on a busy machine
    // too (answers of some tens of ms could each end before a held-up sender's next call arrives).
    const server = await mock([{ latencyMs: 200 }]);
    const { dir, out } = scenarios();
    await runAgora([
      'batch',
      dir,
      '--repeat',
      '2',
      '--concurrency',
      '4',
      '--parallel',
      '3',
      '--host',
      server.url,
      '--out',
      out,
    ]);
    const peak = peakConcurrency(server);
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(3);
  });

  it('resumes an interrupted batch without redoing finished debates', async () => {
    const server = await mock([], 0.05);
    const { dir, out } = scenarios();
    const args = [
      'batch',
      dir,
      '--seeds',
      '1,2,3',
      '--concurrency',
      '2',
      '--host',
      server.url,
      '--out',
      out,
      '--json',
    ];
    const { child, result } = startAgora(args);
    // Wait until at least one debate has finished, then kill the batch mid-flight.
    for (;;) {
      const finishedOne =
        existsSync(out) &&
        readdirSync(out).some((name) => {
          const log = path.join(out, name, 'events.jsonl');
          return existsSync(log) && readFileSync(log, 'utf8').includes('"type":"run-end"');
        });
      if (finishedOne || child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGKILL');
    await result;
    const before = (await runAgora(['runs', '--out', out, '--json'])).stdout;
    const finished = (JSON.parse(before) as Array<{ runId: string; status: string; runDir: string }>).filter(
      (run) => run.status === 'completed',
    );
    expect(finished.length).toBeGreaterThan(0);
    const logs = new Map(
      finished.map((run) => [run.runId, readFileSync(path.join(run.runDir, 'events.jsonl'), 'utf8')]),
    );

    const again = await runAgora(args);
    expect(again.code).toBe(0);
    const summary = JSON.parse(again.stdout) as {
      completed: number;
      skipped: number;
      results: Array<{ runId: string; outcome: string }>;
    };
    expect(summary.skipped).toBe(finished.length);
    expect(summary.completed + summary.skipped).toBe(6);
    for (const [runId, log] of logs) {
      expect(readFileSync(path.join(out, runId, 'events.jsonl'), 'utf8')).toBe(log);
    }
    // The kill left the index usable, and the second pass brought it level with the logs.
    expect((await runAgora(['reindex', '--check', '--out', out])).code).toBe(0);
  });

  it('indexes every debate when two batches write to one runs folder at once', async () => {
    const server = await mock([], 0);
    const { dir, out } = scenarios();
    const batch = (seeds: string) =>
      runAgora(['batch', dir, '--seeds', seeds, '--concurrency', '2', '--host', server.url, '--out', out]);
    const [first, second] = await Promise.all([batch('1,2'), batch('3,4')]);
    expect([first.code, second.code]).toEqual([0, 0]);
    const count = await runAgora(['query', '--out', out, '--json', 'SELECT COUNT(*) AS n FROM runs']);
    expect(JSON.parse(count.stdout)).toEqual([{ n: 8 }]);
    expect((await runAgora(['reindex', '--check', '--out', out])).code).toBe(0);
  });

  it('records a failing debate and finishes the others', async () => {
    const server = await mock(
      [{ match: { prompt: 'Motion: Tea is better than coffee' }, fault: 'error-500' }],
      0,
    );
    const { dir, out } = scenarios();
    const result = await runAgora([
      'batch',
      dir,
      '--concurrency',
      '2',
      '--host',
      server.url,
      '--out',
      out,
      '--json',
    ]);
    expect(result.code).toBe(6);
    const summary = JSON.parse(result.stdout) as {
      completed: number;
      failed: number;
      results: Array<{ outcome: string; error: string | null }>;
    };
    expect(summary).toMatchObject({ completed: 1, failed: 1 });
    expect(summary.results.find((item) => item.outcome === 'failed')?.error).toMatch(
      /failed 2 steps in a row/,
    );
  });

  it('--demo runs every scenario on the simulator, one on another server too, and records them as demo runs', async () => {
    const { dir, out } = scenarios();
    // The shipped scenario whose panel is on a llama-server, which is not running here.
    copyFileSync(
      path.join(projectRoot, 'scenarios', 'mixed-providers.yaml'),
      path.join(dir, 'c-two-servers.yaml'),
    );
    const result = await runAgora(['batch', dir, '--demo', '--out', out, '--json'], {
      env: { OLLAMA_HOST: 'http://127.0.0.1:9' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("Demo: every debate runs on Agora's built-in Ollama simulator");
    expect(JSON.parse(result.stdout)).toMatchObject({ completed: 3, failed: 0 });
    const listed = JSON.parse((await runAgora(['runs', '--out', out, '--json'])).stdout) as Array<{
      simulated: boolean;
      status: string;
    }>;
    expect(listed.map((run) => [run.status, run.simulated])).toEqual([
      ['completed', true],
      ['completed', true],
      ['completed', true],
    ]);
    const refused = await runAgora(['batch', dir, '--demo', '--host', 'http://127.0.0.1:9', '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--demo runs the batch on the built-in simulator: leave out --host');
  }, 900_000);

  it('refuses --seeds together with --repeat, and nothing to run', async () => {
    const both = await runAgora(['batch', 'scenarios', '--seeds', '1', '--repeat', '2']);
    expect(both.code).toBe(2);
    const none = await runAgora(['batch']);
    expect(none.code).toBe(2);
  });
});

describe('the batch summary table', () => {
  it('gives each run its status and its one-sentence outcome, and every run id whole on one line', async () => {
    const server = await mock([], 0);
    const { dir, out } = scenarios();
    const batch = async (columns: string) => {
      const result = await runAgora(['batch', dir, '--host', server.url, '--out', out], {
        env: { COLUMNS: columns },
      });
      expect(result.code).toBe(0);
      return result.stdout.split('\n');
    };
    const wide = await batch('400');
    const listed = JSON.parse((await runAgora(['runs', '--out', out, '--json'])).stdout) as Array<{
      runId: string;
      outcome: string;
    }>;
    expect(listed).toHaveLength(2);
    expect(wide).toContainEqual(
      expect.stringMatching(/^Run\s+Seed\s+Models\s+Status\s+Outcome\s+Stop reason/),
    );
    for (const run of listed) {
      // The sentence `runs` and `show` give, beside the status: never the status in its place.
      expect(run.outcome).toMatch(/\w+ \w+/);
      const row = wide.find((line) => line.includes(run.runId)) ?? '';
      expect(row).toContain(`completed  ${run.outcome}`);
    }
    // Run again: every run is skipped, and listed whole at 80 columns.
    const narrow = await batch('80');
    for (const run of listed) expect(narrow.some((line) => line.includes(run.runId))).toBe(true);
  });
});

describe('agora leaderboard', () => {
  it('ranks models, tallies agents and measures judge agreement for a batch, as tables, JSON and CSV', async () => {
    const server = await mock([], 0);
    const { dir, out } = scenarios();
    const batch = await runAgora([
      'batch',
      dir,
      '--repeat',
      '2',
      '--concurrency',
      '2',
      '--host',
      server.url,
      '--out',
      out,
      '--json',
    ]);
    const { batchId } = JSON.parse(batch.stdout) as { batchId: string };
    const json = await runAgora(['leaderboard', '--out', out, '--batch', batchId, '--json']);
    expect(json.code).toBe(0);
    const tables = JSON.parse(json.stdout) as Array<{
      title: string;
      rows: Array<Record<string, unknown>>;
      note?: string;
    }>;
    expect(tables.map((table) => table.title)).toEqual([
      'Models',
      'Agents',
      'Ranking of models (Bradley-Terry)',
      'Judge agreement',
      'Judge reliability',
      'Argument scores (from the argument maps)',
      'Ranking of models by people (blind arena, Bradley-Terry)',
      'Judges against people (blind arena)',
      'Rankings by people and by judges compared: Kendall tau-b n/a',
      'Judges against the truth (truth runs): accuracy per judge model and condition',
    ]);
    // Both models spoke in every debate: the knockout's X and Y, the duel's A and B.
    expect(tables[5]?.rows.map((row) => [row.Model, row.Debates])).toEqual([
      ['llama3', 4],
      ['mistral', 4],
    ]);
    // Nobody voted in the arena: the people's tables are empty, never filled from the judges.
    expect(tables[6]?.rows).toEqual([]);
    expect(tables[7]?.rows).toEqual([]);
    // Every structured answer asked is counted, by model and kind: 2 debates x 2 rounds x 3 judges.
    expect(tables[4]?.rows).toContainEqual(
      expect.objectContaining({ Model: 'mistral', 'Answer kind': 'knockout evaluation', Asked: 12 }),
    );
    const models = tables[0]?.rows ?? [];
    // The knockout scenario: llama3 as X, mistral as every Y; 2 debates of 2 rounds each.
    expect(models.find((row) => row.Model === 'mistral')).toMatchObject({ Debates: 2, Rounds: 4 });
    expect(models.find((row) => row.Model === 'llama3')).toMatchObject({ Debates: 2, Rounds: 4 });
    const ranking = tables[2]?.rows ?? [];
    expect(ranking.map((row) => row.Model).sort()).toEqual(['llama3', 'mistral']);
    // Matches: 4 knockout rounds and 4 duel rounds.
    expect(ranking.every((row) => row.Matches === 8)).toBe(true);
    expect(tables[3]?.note).toMatch(/Fleiss' kappa .* Krippendorff's alpha/);

    const csv = await runAgora(['leaderboard', '--out', out, '--csv', '--table', 'ranking']);
    expect(csv.stdout.split('\n')[0]).toBe('Model,Rating,95% low,95% high,Wins,Losses,Ties,Matches');
    // Mean-score intervals in two columns of numbers within the 1-5 scale; X's model is not scored.
    const modelsCsv = await runAgora(['leaderboard', '--out', out, '--csv', '--table', 'models']);
    const [header = '', ...modelLines] = modelsCsv.stdout.trim().split('\n');
    expect(header).toBe(
      'Model,Debates,Rounds,Mean score,95% low,95% high,Rotations caused (X),Rounds survived (Y),Knock-out rate',
    );
    for (const line of modelLines) {
      const [, , , mean, low, high] = line.split(',');
      if (mean === 'not scored') continue;
      expect(Number(low)).toBeGreaterThanOrEqual(1);
      expect(Number(high)).toBeLessThanOrEqual(5);
    }
    const refused = await runAgora(['leaderboard', '--out', out, '--csv']);
    expect(refused.code).toBe(2);
  });
});
