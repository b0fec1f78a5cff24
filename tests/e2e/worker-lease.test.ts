/**
 * A worker's lease on a run: short, so a dead worker's runs are taken over soon, and kept alive by
 * its renewals while a model call takes longer than the lease itself. On a throwaway Postgres
 * cluster, with workers started as a user starts them.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { commandHelp } from '../../src/cli/program.js';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { SMALL_SCENARIOS } from '../helpers/format-scenarios.js';
import { useMockServers } from '../helpers/mock-servers.js';
import {
  mustRunDatabaseTests,
  postgresBin,
  startPostgres,
  type ThrowawayPostgres,
} from '../helpers/postgres.js';

const runs = postgresBin !== undefined || mustRunDatabaseTests;

describe('the takeover bound a worker states', () => {
  it('is a 15 s lease by default, renewed every 5 s: within about 19.75 s with a free slot, later when every worker is busy', () => {
    const help = (commandHelp('worker') ?? '').replace(/\s+/g, ' ');
    expect(help).toContain(
      'If a worker dies, its runs are taken over within about 19.75 s (a 15 s lease, renewed every 5 s; a sweep every 3.75 s; a 1 s poll) when a live worker has a free slot, later when every one is busy.',
    );
    expect(help).toContain('(default 15)');
  });
});

describe.runIf(runs)('a worker lease shorter than a model call', () => {
  const mock = useMockServers();
  let server: ThrowawayPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function sql<Row extends pg.QueryResultRow>(url: string, text: string) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<Row>(text)).rows;
    } finally {
      await client.end();
    }
  }

  it('is kept by its renewals through the call: no other worker takes the run, and it completes', async () => {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE lease_test');
    await admin.end();
    const url = new URL(server.url);
    url.pathname = '/lease_test';
    const database = url.toString();
    const dir = tempDir();
    expect((await runAgora(['migrate', '--database', database], { cwd: dir })).code).toBe(0);
    const file = path.join(dir, 'duel.yaml');
    writeFileSync(file, stringify((SMALL_SCENARIOS.duel as (extra: object) => object)({ max_rounds: 1 })));
    expect((await runAgora(['batch', '--database', database, file, '--seeds', '1'], { cwd: dir })).code).toBe(
      0,
    );
    // One call of 10 s, more than three leases of 3 s: only the renewals keep the lease.
    const slow = await mock({ script: [{ match: { model: 'mistral' }, times: 1, latencyMs: 10_000 }] });
    const quick = await mock();
    const worker = (name: string, host: string) =>
      startAgora(
        [
          'worker',
          '--database',
          database,
          '--host',
          host,
          '--name',
          name,
          '--lease',
          '3',
          '--poll',
          '0.2',
          '--out',
          path.join(dir, name),
          '--exit-when-idle',
        ],
        { cwd: dir, timeoutMs: 600_000 },
      );
    const driving = worker('w-slow', slow.url);
    // The second worker starts once the first holds the run, and sweeps for lapsed leases every second.
    for (;;) {
      const [row] = await sql<{ owner: string | null }>(database, 'SELECT owner FROM agora_runs');
      if (row?.owner === 'w-slow') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const watching = worker('w-idle', quick.url);
    const [first, second] = await Promise.all([driving.result, watching.result]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(first.stderr).toContain(
      'taken over within about 4.2 s (a 3 s lease, renewed every 1 s; a sweep every 1 s; a 0.2 s poll)',
    );
    // The slow call was made and lasted its 10 s.
    const longest = Math.max(
      ...slow.requests
        .filter((request) => (request.body as { model?: string } | undefined)?.model === 'mistral')
        .map((request) => (request.finishedAt ?? 0) - request.receivedAt),
    );
    expect(longest).toBeGreaterThanOrEqual(10_000);
    expect(second.stderr).not.toMatch(/took over|started/);
    const [run] = await sql<{ status: string; lease_epoch: number }>(
      database,
      'SELECT status, lease_epoch FROM agora_runs',
    );
    expect(run).toEqual({ status: 'completed', lease_epoch: 1 });
    const writers = await sql<{ worker: string }>(database, 'SELECT DISTINCT worker FROM agora_events');
    expect(writers.map((row) => row.worker)).toEqual(['w-slow']);
  });
});
