import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario, Y_NAMES } from '../helpers/scenario.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });

// A short topic keeps the run folder's name, printed whole, within 80 columns.
async function knockout(columns: string, args: string[] = []) {
  const server = await mock();
  const dir = tempDir();
  mkdirSync(path.join(dir, 'runs'));
  writeFileSync(
    path.join(dir, 'scenario.yaml'),
    stringify(testScenario({ rounds: 4, extra: { topic: 'Ban cars?' } })),
  );
  const result = await runAgora(['run', 'scenario.yaml', '--host', server.url, '--out', 'runs', ...args], {
    cwd: dir,
    env: { COLUMNS: columns },
  });
  const runs = await runAgora(['runs', '--out', 'runs'], { cwd: dir, env: { COLUMNS: columns } });
  return { ...result, runs: runs.stdout };
}

const BOX = /[┌┐└┘│─┼├┤┬┴]/;

describe('terminal output fits the width it is given', () => {
  it('keeps every line of a knockout, live view and final tables, within COLUMNS=80 in plain text', async () => {
    const result = await knockout('80');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines.filter((line) => line.length > 80)).toEqual([]);
    expect(result.stdout).not.toMatch(BOX);
    expect(result.stdout).not.toContain('\u001b[');
    // The facts survive the narrow layout: the result for X, every agent, scores with their scale.
    expect(result.stdout).toMatch(/^Xavier \(Car-free\) knocked out \d of \d opponents?;/m);
    // One line per agent: the tokens and real time give way, and a line says so.
    for (const name of ['Xavier', ...Y_NAMES.slice(0, 4)]) {
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^${name}\\s+[XY]\\s+\\S+\\s+\\d\\s+(—|\\d\\.\\d\\d / 5)\\s+\\d+\\s+(yes|no)\\s+[\\d.]+ s(\\s+\\d+)?$`,
          ),
        ),
      );
    }
    expect(result.stdout).not.toMatch(/^Agent: /m);
    expect(result.stdout).toMatch(/^Left out to fit 80 columns: Real time, Tokens out(, Tokens in)?\.$/m);
    expect(result.stdout).toMatch(/Transcript:\s+\S+\/transcript\.md/);
    // `agora runs` lists the run within the same width.
    expect(result.runs.split('\n').filter((line) => line.length > 80)).toEqual([]);
    // The topic may wrap beside the outcome, word by word.
    expect(result.runs).toMatch(/\bBan\b[\s\S]*\bcars\?/);
    expect(result.runs).not.toMatch(BOX);
  });

  it('uses the wide table, one line per agent, with COLUMNS=160', async () => {
    const result = await knockout('160', ['--quiet']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines.filter((line) => line.length > 160)).toEqual([]);
    const header = lines.find((line) => line.startsWith('Agent'));
    expect(header).toMatch(
      /Agent\s+Pos\s+Model\s+Rounds\s+Mean score\s+Votes against\s+Knocked out.*Real time$/,
    );
    for (const name of ['Xavier', ...Y_NAMES.slice(0, 4)]) {
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^${name}\\s+[XY]\\s+\\S+\\s+\\d\\s+(—|\\d\\.\\d\\d / 5)\\s+\\d+\\s+(yes|no)\\s.*\\d s$`,
          ),
        ),
      );
    }
  });

  it('prints `agora query` to a pipe as a plain table, without borders', async () => {
    const out = path.join(tempDir(), 'runs');
    mkdirSync(out);
    expect((await runAgora(['reindex', '--out', out])).code).toBe(0);
    const result = await runAgora(['query', "SELECT 1 AS x, 'two' AS y", '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(BOX);
    expect(result.stdout.split('\n')[0]).toMatch(/^x\s+y\s*$/);
    expect(result.stdout).toMatch(/^1\s+two\s*$/m);
  });

  it('lists every run id whole on one line in `agora runs`, with COLUMNS=80 and COLUMNS=120', async () => {
    const out = path.join(tempDir(), 'runs');
    for (const scenario of ['critique-rate-limiter.yaml', 'duel-remote-work.yaml']) {
      const demo = await runAgora([
        'demo',
        `scenarios/${scenario}`,
        '--profile',
        'instant',
        '--out',
        out,
        '--quiet',
      ]);
      expect(demo.code).toBe(0);
    }
    const ids = (
      JSON.parse((await runAgora(['runs', '--out', out, '--json'])).stdout) as Array<{ runId: string }>
    ).map((run) => run.runId);
    expect(ids).toHaveLength(2);
    for (const columns of ['80', '120']) {
      const listed = await runAgora(['runs', '--out', out], { env: { COLUMNS: columns } });
      expect(listed.code).toBe(0);
      const lines = listed.stdout.split('\n');
      for (const id of ids) expect(lines.some((line) => line.includes(id))).toBe(true);
      expect(listed.stdout).not.toMatch(BOX);
      // A table, not a block of "key: value" lines per run.
      expect(listed.stdout).not.toMatch(/^\s*Status: /m);
      expect(listed.stdout).toMatch(/^(?:Run +)?\s*Format\s+Status\s+Topic\s+Progress\s+Outcome/m);
    }
  }, 900_000);
});
