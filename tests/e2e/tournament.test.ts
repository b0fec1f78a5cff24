/**
 * `agora tournament` as a user runs it: on the built-in simulator (`--demo`) and against the mock
 * server as a real host, to its standings, with the tournament's log and run folders on disk.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TournamentEntry } from '../../src/tournament/tournament-log.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';

const mock = useMockServers();

function entries(folder: string): TournamentEntry[] {
  return readFileSync(path.join(folder, 'tournament.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as TournamentEntry);
}

function motionsFile(dir: string, motions: string[]): string {
  const file = path.join(dir, 'motions.txt');
  writeFileSync(file, `# motions\n${motions.join('\n')}\n`);
  return file;
}

describe('agora tournament', () => {
  it('runs every pairing on every motion in both side orders on the simulator and prints the standings', async () => {
    const dir = tempDir();
    const motions = motionsFile(dir, [
      'Tea is better than coffee',
      'Cities should ban cars from their centres',
    ]);
    const out = path.join(dir, 'cup');
    const result = await runAgora(
      [
        'tournament',
        '--demo',
        '--models',
        'm1,m2,m3,m4',
        '--motions',
        motions,
        '--rounds',
        '2',
        '--concurrency',
        '4',
        '--out',
        out,
      ],
      { cwd: dir },
    );
    expect(result.stderr).toContain('Demo:');
    expect([0, 9]).toContain(result.code);
    const log = entries(out);
    const planned = log.flatMap((entry) => (entry.type === 'matches-planned' ? entry.matches : []));
    // 4 models: 6 pairs, both side orders, 2 motions.
    expect(planned).toHaveLength(24);
    const orders = new Set(planned.map((match) => `${match.motionId}:${match.first}>${match.second}`));
    expect(orders.size).toBe(24);
    for (const match of planned) {
      expect(orders.has(`${match.motionId}:${match.second}>${match.first}`)).toBe(true);
      expect([match.first, match.second]).not.toContain(match.judge);
    }
    // m1..m4 are one family ("m"): the weaker rule is said and recorded.
    expect(result.stderr).toContain('No judge of another family is left');
    expect(new Set(planned.map((match) => match.judgeRule))).toEqual(new Set(['other-model']));
    const ends = log.filter((entry) => entry.type === 'debate-end');
    expect(ends).toHaveLength(24);
    for (const end of ends) {
      expect(existsSync(path.join(out, end.runId, 'transcript.json'))).toBe(true);
      const transcript = JSON.parse(readFileSync(path.join(out, end.runId, 'transcript.json'), 'utf8'));
      const match = planned.find((each) => each.runId === end.runId);
      // The record names the models the debate's transcript seated, judged by the planned judge.
      expect(end.match?.first).toBe(transcript.debaters.a.model);
      expect(end.match?.first).toBe(match?.first);
      expect(end.match?.second).toBe(match?.second);
      expect(end.match?.readings.every((reading) => reading.judgeModel === match?.judge)).toBe(true);
      expect(end.match?.readings.length).toBeGreaterThan(0);
      expect(end.match?.style.first.tokensPerStatement).toBeGreaterThan(0);
    }
    for (const model of ['m1', 'm2', 'm3', 'm4'])
      expect(result.stdout).toMatch(new RegExp(`^\\s*${model}\\b`, 'm'));
    expect(result.stderr).toMatch(/24\/24 debates done, 0 in flight, 0 failed, \d+ tokens\/s/);
    // The leaderboard prints the same standings from the tournament's folder; JSON and CSV too.
    const board = await runAgora(['leaderboard', '--tournament', out], { cwd: dir });
    expect(board.code).toBe(0);
    expect(board.stdout).toBe(result.stdout);
    const json = JSON.parse(
      (await runAgora(['leaderboard', '--tournament', out, '--json'], { cwd: dir })).stdout,
    );
    expect(json.standings.debates).toBe(24);
    expect(json.standings.models.map((model: { model: string }) => model.model).sort()).toEqual([
      'm1',
      'm2',
      'm3',
      'm4',
    ]);
    for (const line of ['Rating', 'Style', 'Separability:', 'Judge m1: order flips', 'Robustness:'])
      expect(result.stdout).toContain(line);
    const csv = (await runAgora(['leaderboard', '--tournament', out, '--csv'], { cwd: dir })).stdout
      .trim()
      .split('\n');
    expect(csv).toHaveLength(5);
  });

  it('runs against the mock server as a real host, and the same command again repeats nothing', async () => {
    const server = await mock({ models: ['llama3', 'mistral', 'qwen2.5'] });
    const dir = tempDir();
    const motions = motionsFile(dir, ['Tea is better than coffee']);
    const args = [
      'tournament',
      '--host',
      server.url,
      '--models',
      'llama3,mistral,qwen2.5',
      '--motions',
      motions,
      '--rounds',
      '2',
      '--out',
      'cup',
    ];
    const first = await runAgora(args, { cwd: dir });
    expect(first.stderr).not.toContain('Demo:');
    expect([0, 9]).toContain(first.code);
    const out = path.join(dir, 'cup');
    expect(entries(out).filter((entry) => entry.type === 'debate-end')).toHaveLength(6);
    // llama, mistral and qwen are three families: every judge is of another family than both debaters.
    const planned = entries(out).flatMap((entry) => (entry.type === 'matches-planned' ? entry.matches : []));
    expect(planned.every((match) => match.judgeRule === 'other-family')).toBe(true);
    const chats = server.requests.filter((request) => request.path === '/api/chat').length;
    expect(chats).toBeGreaterThan(0);

    const again = await runAgora(args, { cwd: dir });
    expect(again.code).toBe(first.code);
    expect(server.requests.filter((request) => request.path === '/api/chat')).toHaveLength(chats);
    expect(entries(out).filter((entry) => entry.type === 'debate-end')).toHaveLength(6);
    expect(readdirSync(out).filter((name) => name.startsWith('tournament-'))).toHaveLength(6);
    expect(again.stdout).toBe(first.stdout);
  });

  it('plays an adaptive schedule within --budget, each pairing in both side orders and never twice on a motion', async () => {
    const dir = tempDir();
    const motions = motionsFile(dir, [
      'Tea is better than coffee',
      'Trains beat planes',
      'Homework does more harm than good',
    ]);
    const out = path.join(dir, 'cup');
    const result = await runAgora(
      [
        'tournament',
        '--demo',
        '--models',
        'm1,m2,m3,m4',
        '--motions',
        motions,
        '--rounds',
        '1',
        '--budget',
        '16',
        '--concurrency',
        '4',
        '--out',
        out,
      ],
      { cwd: dir },
    );
    expect([0, 9]).toContain(result.code);
    // 36 debates would make the round-robin: the budget makes the schedule adaptive.
    expect(result.stderr).toContain('adaptive (16 debates)');
    const log = entries(out);
    const start = log[0];
    expect(start?.type === 'tournament-start' && start.spec.schedule).toBe('adaptive');
    const batches = log.flatMap((entry) => (entry.type === 'matches-planned' ? [entry.matches] : []));
    // The first batch meets every pair once; the rest come in batches planned from the results.
    expect(batches[0]).toHaveLength(12);
    expect(batches.length).toBeGreaterThan(1);
    const planned = batches.flat();
    expect(planned).toHaveLength(16);
    const orders = planned.map((match) => `${match.motionId}:${match.first}>${match.second}`);
    expect(new Set(orders).size).toBe(16);
    for (const match of planned) expect(orders).toContain(`${match.motionId}:${match.second}>${match.first}`);
    expect(log.filter((entry) => entry.type === 'debate-end')).toHaveLength(16);
  });
});
