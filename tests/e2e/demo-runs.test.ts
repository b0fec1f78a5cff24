/**
 * Runs on the built-in simulator are marked as demos wherever runs are listed or counted: their log,
 * the run index, `agora runs`, and the leaderboard (which leaves them out unless asked).
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { useMockServers, waitForEvents } from '../helpers/mock-servers.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });

const duel = {
  format: 'duel',
  topic: 'Remote work is better than the office',
  seed: 5,
  max_rounds: 1,
  debaters: { a: { name: 'Ada', model: 'llama3' }, b: { name: 'Blaise', model: 'mistral' } },
  judge: { name: 'Judge', model: 'llama3' },
  stop: { judge_early_stop: false },
};

interface Listing {
  runId: string;
  simulated: boolean;
  outcome: string;
}

interface Table {
  title: string;
  rows: Array<Record<string, unknown>>;
}

describe('demo runs', () => {
  it('are recorded as simulated, marked (demo) in `agora runs`, and left out of the leaderboard unless --include-demo', async () => {
    const server = await mock();
    const dir = tempDir();
    const file = path.join(dir, 'duel.yaml');
    writeFileSync(file, stringify(duel));
    const out = path.join(dir, 'runs');
    const real = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    expect(real.code).toBe(0);
    const demo = await runAgora(['demo', file, '--profile', 'instant', '--out', out, '--quiet']);
    expect(demo.code).toBe(0);
    // The last screen says who won once more, under the tables, then what to try next.
    const lines = demo.stdout.trimEnd().split('\n');
    const next = lines.lastIndexOf('Next:');
    const sentence = lines[next - 1] ?? '';
    expect(sentence).toMatch(/won|draw/);
    expect(demo.stdout.indexOf(sentence)).toBeLessThan(demo.stdout.lastIndexOf(sentence));
    expect(lines.slice(next)).toContain(`  npm run agora -- show latest --out ${out}`);
    expect(lines.slice(next)).toContain(`  npm run agora -- serve --out ${out}`);

    const listed = JSON.parse((await runAgora(['runs', '--out', out, '--json'])).stdout) as Listing[];
    expect(listed.map((run) => run.simulated).sort()).toEqual([false, true]);
    const demoRun = listed.find((run) => run.simulated) as Listing;
    const realRun = listed.find((run) => !run.simulated) as Listing;
    expect(readEvents(path.join(out, demoRun.runId))[0]).toMatchObject({
      type: 'run-start',
      simulated: true,
    });
    expect(readEvents(path.join(out, realRun.runId))[0]).not.toHaveProperty('simulated');

    const table = (await runAgora(['runs', '--out', out], { env: { COLUMNS: '400' } })).stdout;
    const lineOf = (runId: string) => table.split('\n').find((line) => line.includes(runId)) ?? '';
    expect(lineOf(demoRun.runId)).toContain('duel (demo)');
    expect(lineOf(realRun.runId)).not.toContain('(demo)');
    // Who won, in its own column, as `runs --json` has it.
    expect(table.split('\n')[0]).toMatch(
      /^Run +Format +Status +Topic +Progress +Outcome +Failed steps +Models/,
    );
    for (const run of listed)
      expect(lineOf(run.runId)).toContain(run.outcome.split(' ').slice(0, 3).join(' '));

    // The ranking counts the Judge's round verdicts as matches: one per run here.
    const judgements = (tables: Table[]) =>
      tables
        .filter((found) => found.title.startsWith('Ranking'))
        .flatMap((found) => found.rows)
        .reduce((sum, row) => sum + Number(row.Matches ?? 0), 0);
    const counted = JSON.parse((await runAgora(['leaderboard', '--out', out, '--json'])).stdout) as Table[];
    const withDemo = JSON.parse(
      (await runAgora(['leaderboard', '--out', out, '--json', '--include-demo'])).stdout,
    ) as Table[];
    expect(judgements(withDemo)).toBe(2 * judgements(counted));
    expect(judgements(counted)).toBeGreaterThan(0);
    const board = await runAgora(['leaderboard', '--out', out], { env: { COLUMNS: '400' } });
    expect(board.stdout).toContain(
      '1 demo run (on the built-in simulator) left out; add --include-demo to count it.',
    );
  }, 180_000);

  it('over demo runs alone, the leaderboard says why its tables are empty and names --include-demo', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'duel.yaml');
    writeFileSync(file, stringify(duel));
    const out = path.join(dir, 'runs');
    expect((await runAgora(['demo', file, '--profile', 'instant', '--out', out, '--quiet'])).code).toBe(0);
    const board = await runAgora(['leaderboard', '--out', out], { env: { COLUMNS: '400' } });
    expect(board.code).toBe(0);
    expect(board.stdout.split('\n')[0]).toBe(
      'Nothing to rank: the one run here is a demo run (on the built-in simulator), and demo runs are left out by default. Add --include-demo to count them.',
    );
    const counted = await runAgora(['leaderboard', '--out', out, '--include-demo'], {
      env: { COLUMNS: '400' },
    });
    expect(counted.stdout).not.toContain('Nothing to rank');
  }, 60_000);

  it('gains the simulated column in an index written before it existed', async () => {
    const server = await mock();
    const dir = tempDir();
    const file = path.join(dir, 'duel.yaml');
    writeFileSync(file, stringify(duel));
    const out = path.join(dir, 'runs');
    expect((await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet'])).code).toBe(0);
    // Rewrite the index as an older version left it: no simulated column.
    const db = new Database(path.join(out, 'index.sqlite'));
    db.exec('ALTER TABLE runs DROP COLUMN simulated');
    db.close();
    const listed = await runAgora(['runs', '--out', out, '--json']);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as Listing[]).map((run) => run.simulated)).toEqual([false]);
    expect(readdirSync(out)).toContain('index.sqlite');
  }, 60_000);

  it('stopped with Ctrl-C, says to resume it with --demo, and that command finishes it', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'duel.yaml');
    writeFileSync(file, stringify({ ...duel, max_rounds: 3 }));
    const out = path.join(dir, 'runs');
    const { child, result } = startAgora(['demo', file, '--speed', '0.2', '--out', out, '--quiet']);
    await waitForEvents(out, 2);
    child.kill('SIGINT');
    const stopped = await result;
    expect(stopped.code).toBe(130);
    const runDir = onlyRunDir(out);
    const hint = stopped.stdout.match(/Continue with: npm run agora -- (resume .*)$/m)?.[1] ?? '';
    expect(hint).toBe(`resume ${runDir} --demo`);

    const resumed = await runAgora([...hint.split(' '), '--quiet']);
    expect(resumed.code).toBe(0);
    expect(readEvents(runDir).at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
  }, 120_000);

  it('stopped, goes on on the simulator with `resume latest` alone, no model server needed', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'duel.yaml');
    writeFileSync(file, stringify({ ...duel, max_rounds: 3 }));
    const out = path.join(dir, 'runs');
    const { child, result } = startAgora(['demo', file, '--speed', '0.2', '--out', out, '--quiet']);
    await waitForEvents(out, 2);
    child.kill('SIGINT');
    expect((await result).code).toBe(130);
    const runDir = onlyRunDir(out);
    // Nothing listens on port 9: only the simulator can finish it.
    const resumed = await runAgora(['resume', 'latest', '--out', out, '--quiet'], {
      env: { OLLAMA_HOST: 'http://127.0.0.1:9' },
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(
      `Demo: run ${path.basename(runDir)} began on the built-in simulator, so it is resumed on Agora's built-in Ollama simulator`,
    );
    expect(readEvents(runDir).at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(readEvents(runDir).filter((event) => event.type === 'run-resume')).toHaveLength(1);
  }, 120_000);
});
