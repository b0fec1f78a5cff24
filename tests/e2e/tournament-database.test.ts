/**
 * `agora tournament --database`: the debates go to the shared Postgres queue (a throwaway cluster),
 * two `agora worker`s on their own simulated hosts drive them, and the tournament follows them from
 * the database to its standings; killed with SIGKILL twice at moments read from its own log, it
 * queues no debate twice and repeats none.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TournamentEntry } from '../../src/tournament/tournament-log.js';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import {
  mustRunDatabaseTests,
  postgresBin,
  startPostgres,
  type ThrowawayPostgres,
} from '../helpers/postgres.js';
import { tournamentEntries as entries, whenTournamentLog as whenLog } from '../helpers/tournament-log.js';

const runs = postgresBin !== undefined || mustRunDatabaseTests;
let server: ThrowawayPostgres;
let serial = 0;

async function sql<Row extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function freshDatabase(): Promise<string> {
  serial += 1;
  const name = `agora_tournament_${process.pid}_${serial}`;
  await sql(server.url, `CREATE DATABASE ${name}`);
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  return url.toString();
}

const ofType = <T extends TournamentEntry['type']>(log: TournamentEntry[], type: T) =>
  log.filter((entry): entry is Extract<TournamentEntry, { type: T }> => entry.type === type);

describe.runIf(runs)('agora tournament --database', () => {
  const mock = useMockServers({ models: ['m1', 'm2', 'm3', 'm4'] });
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('queues its debates for the workers, survives kill -9 twice without queueing or playing one twice, and ends with standings', async () => {
    const url = await freshDatabase();
    expect((await runAgora(['migrate', '--database', url])).code).toBe(0);
    const dir = tempDir();
    writeFileSync(path.join(dir, 'motions.txt'), 'Tea is better than coffee\nTrains beat planes\n');
    const out = path.join(dir, 'cup');
    const args = [
      'tournament',
      '--database',
      url,
      '--models',
      'm1,m2,m3',
      '--motions',
      'motions.txt',
      '--rounds',
      '1',
      '--out',
      out,
    ];

    // No worker yet: the tournament queues its round-robin and waits. Killed once a debate is queued.
    const first = startAgora(args, { cwd: dir });
    await whenLog(out, (log) => ofType(log, 'debate-queued').length >= 1);
    first.child.kill('SIGKILL');
    await first.result;

    const workers = await Promise.all(
      ['w1', 'w2'].map(async (name) => {
        const host = await mock();
        return startAgora(
          [
            'worker',
            '--database',
            url,
            '--host',
            host.url,
            '--out',
            tempDir(),
            '--poll',
            '0.1',
            '--name',
            name,
          ],
          { cwd: dir },
        );
      }),
    );
    try {
      // Killed again right after it logs a debate a worker finished.
      const second = startAgora(args, { cwd: dir });
      await whenLog(out, (log) => ofType(log, 'debate-end').length >= 1);
      second.child.kill('SIGKILL');
      await second.result;

      const last = await runAgora(['tournament', '--resume', out, '--database', url], { cwd: dir });
      expect(last.stderr).toContain('queue');
      expect([0, 9]).toContain(last.code);
      expect(last.stdout).toMatch(/^\s*m1\b/m);
    } finally {
      for (const worker of workers) worker.child.kill('SIGINT');
      await Promise.all(workers.map((worker) => worker.result));
    }

    const log = entries(out);
    const start = log[0];
    expect(start?.type === 'tournament-start' && start.database).toBe(url);
    const planned = ofType(log, 'matches-planned').flatMap((entry) => entry.matches);
    const ids = planned.map((match) => match.runId).sort();
    expect(ids).toHaveLength(12);
    // Each debate queued once in the log, ended once, and held once in the database, one run each.
    expect(
      ofType(log, 'debate-queued')
        .map((entry) => entry.runId)
        .sort(),
    ).toEqual(ids);
    expect(
      ofType(log, 'debate-end')
        .map((entry) => entry.runId)
        .sort(),
    ).toEqual(ids);
    const rows = await sql<{ run_id: string; status: string; batch_id: string }>(
      url,
      'SELECT run_id, status, batch_id FROM agora_runs ORDER BY run_id',
    );
    expect(rows.map((row) => row.run_id)).toEqual(ids);
    for (const row of rows) {
      expect(['completed', 'degraded']).toContain(row.status);
      expect(row.batch_id).toBe(start?.type === 'tournament-start' ? start.id : '');
      const starts = await sql(url, "SELECT seq FROM agora_events WHERE run_id = $1 AND type = 'run-start'", [
        row.run_id,
      ]);
      expect(starts, row.run_id).toHaveLength(1);
    }
    // The finished runs are copied into the tournament's folder, and the standings read them.
    for (const end of ofType(log, 'debate-end')) {
      expect(existsSync(path.join(out, end.runId, 'transcript.json')), end.runId).toBe(true);
      const match = planned.find((each) => each.runId === end.runId);
      expect(end.match?.first).toBe(match?.first);
      expect(end.match?.readings.length).toBeGreaterThan(0);
    }
    const board = await runAgora(['leaderboard', '--tournament', out, '--json'], { cwd: dir });
    expect(board.code).toBe(0);
  });

  it('plans an adaptive schedule through the queue as it plans it on one host, from the same outcomes', async () => {
    const url = await freshDatabase();
    expect((await runAgora(['migrate', '--database', url])).code).toBe(0);
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'motions.txt'),
      'Tea is better than coffee\nTrains beat planes\nHomework does more harm than good\n',
    );
    const args = [
      'tournament',
      '--models',
      'm1,m2,m3,m4',
      '--motions',
      'motions.txt',
      '--rounds',
      '1',
      '--budget',
      '18',
      '--concurrency',
      '4',
    ];
    const host = await mock();
    const here = await runAgora([...args, '--host', host.url, '--out', 'here'], { cwd: dir });
    expect([0, 9]).toContain(here.code);

    const workers = await Promise.all(
      ['w1', 'w2'].map(async (name) => {
        const own = await mock();
        return startAgora(
          [
            'worker',
            '--database',
            url,
            '--host',
            own.url,
            '--out',
            tempDir(),
            '--poll',
            '0.1',
            '--name',
            name,
          ],
          { cwd: dir },
        );
      }),
    );
    try {
      const queued = await runAgora([...args, '--database', url, '--out', 'queued'], { cwd: dir });
      expect([0, 9]).toContain(queued.code);
      expect(queued.stdout).toMatch(/^\s*m\d\b/m);
    } finally {
      for (const worker of workers) worker.child.kill('SIGINT');
      await Promise.all(workers.map((worker) => worker.result));
    }
    const plan = (folder: string) =>
      ofType(entries(path.join(dir, folder)), 'matches-planned').map((entry) => entry.matches);
    const results = (folder: string) =>
      ofType(entries(path.join(dir, folder)), 'debate-end')
        .map((entry) => `${entry.runId} ${entry.match?.score}`)
        .sort();
    expect(plan('queued')[0]).toHaveLength(12);
    expect(
      plan('queued')
        .slice(1)
        .map((matches) => matches.length),
    ).toEqual([2, 2, 2]);
    // The same outcomes, so the same choices.
    expect(results('queued')).toEqual(results('here'));
    expect(plan('queued')).toEqual(plan('here'));
  });
});

describe('agora tournament with AGORA_DATABASE_URL set', () => {
  it('runs a --demo tournament here, as it says, and leaves the database alone', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'motions.txt'), 'Tea is better than coffee\n');
    const result = await runAgora(
      [
        'tournament',
        '--demo',
        '--models',
        'm1,m2,m3',
        '--motions',
        'motions.txt',
        '--rounds',
        '1',
        '--out',
        'cup',
      ],
      { cwd: dir, env: { AGORA_DATABASE_URL: 'postgres://agora@127.0.0.1:1/agora' } },
    );
    expect([0, 9]).toContain(result.code);
    const log = entries(path.join(dir, 'cup'));
    const start = log[0];
    expect(start?.type === 'tournament-start' && start.database).toBeUndefined();
    expect(ofType(log, 'debate-end')).toHaveLength(6);
  });
});
