/**
 * A run's log is tamper-evident: a line changed by hand is named by `agora verify` and by every
 * command that reads the log; a log written before events were chained still reads, as unchained.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgora, tempDir } from '../helpers/cli.js';
import { postgresBin, startPostgres, type ThrowawayPostgres } from '../helpers/postgres.js';
import { onlyRunDir } from '../helpers/transcripts.js';

async function demoRun(): Promise<{ out: string; runDir: string; runId: string }> {
  const out = path.join(tempDir(), 'runs');
  const demo = await runAgora(['demo', '--profile', 'instant', '--out', out, '--quiet']);
  expect(demo.code).toBe(0);
  const runDir = onlyRunDir(out);
  return { out, runDir, runId: path.basename(runDir) };
}

describe('a chained event log', () => {
  it('is reported whole by verify, and the first changed line is named by verify, show, resume, runs and reindex', async () => {
    const { out, runDir, runId } = await demoRun();
    const clean = await runAgora(['verify', runId, '--out', out, '--json']);
    expect(clean.code).toBe(0);
    const [verdict] = JSON.parse(clean.stdout) as Array<{ status: string; events: number; chained: number }>;
    expect(verdict?.status).toBe('chained');
    expect(verdict?.chained).toBe(verdict?.events);

    // Line 5 keeps valid JSON; only a word of its text changes.
    const log = path.join(runDir, 'events.jsonl');
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    const target = lines.findIndex((line, index) => index >= 4 && /"text":"[^"]*\b(the|a)\b/.test(line));
    expect(target).toBeGreaterThan(0);
    lines[target] = (lines[target] as string).replace(/"text":"([^"]*?)\b(the|a)\b/, '"text":"$1not $2');
    JSON.parse(lines[target] as string);
    writeFileSync(log, `${lines.join('\n')}\n`);
    const where = `events.jsonl:${target + 1}: the line does not match the log's hash chain`;

    const verified = await runAgora(['verify', runId, '--out', out]);
    expect(verified.code).toBe(7);
    expect(verified.stdout).toContain(where);
    const folder = await runAgora(['verify', out]);
    expect(folder.code).toBe(7);
    expect(folder.stdout).toContain(where);
    for (const command of [
      ['show', runId],
      ['resume', runId, '--demo'],
    ]) {
      const result = await runAgora([...command, '--out', out]);
      expect(result.code).toBe(7);
      expect(result.stderr).toContain(where);
    }
    const listed = JSON.parse((await runAgora(['runs', '--out', out, '--json'])).stdout) as Array<{
      status: string;
      stopReason: string;
    }>;
    expect(listed[0]?.status).toBe('damaged');
    expect(listed[0]?.stopReason).toContain(where);
    const reindex = await runAgora(['reindex', '--out', out]);
    expect(reindex.stderr).toContain(where);
  });

  it('written before events were chained, still reads, and verify says it is unchained', async () => {
    const { out, runDir, runId } = await demoRun();
    const log = path.join(runDir, 'events.jsonl');
    const unchained = readFileSync(log, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => {
        const { prev: _prev, hash: _hash, ...event } = JSON.parse(line) as Record<string, unknown>;
        return JSON.stringify(event);
      });
    writeFileSync(log, `${unchained.join('\n')}\n`);
    const show = await runAgora(['show', runId, '--out', out]);
    expect(show.code).toBe(0);
    expect(show.stderr).toContain('written before events were chained');
    const verified = await runAgora(['verify', '--out', out]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(new RegExp(`unchained +${runId}`));
  });
});

describe.runIf(postgresBin !== undefined)('a chained event log in the shared database', () => {
  let server: ThrowawayPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 900_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('is checked by verify --database, which names the first line changed there', async () => {
    const { out, runId } = await demoRun();
    const cwd = tempDir();
    expect((await runAgora(['migrate', '--database', server.url], { cwd })).code).toBe(0);
    expect((await runAgora(['push', out, '--database', server.url], { cwd })).code).toBe(0);
    const clean = await runAgora(['verify', '--database', server.url], { cwd });
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(new RegExp(`ok +${runId} +\\d+ events, chained`));

    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      await client.query(
        `UPDATE agora_events SET line = replace(line, '"seq":3,', '"seq":3, ') WHERE run_id = $1 AND seq = 3`,
        [runId],
      );
    } finally {
      await client.end();
    }
    const changed = await runAgora(['verify', runId, '--database', server.url], { cwd });
    expect(changed.code).toBe(7);
    expect(changed.stdout).toContain(`run ${runId}, line 4: the line does not match the log's hash chain`);
  });
});
