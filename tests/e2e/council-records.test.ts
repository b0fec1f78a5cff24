import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });

function councilFile(): { file: string; dir: string } {
  const dir = tempDir();
  const file = path.join(dir, 'council.yaml');
  writeFileSync(
    file,
    stringify({
      format: 'council',
      topic: 'Should we move the billing database to PostgreSQL?',
      seed: 5,
      reliability: { attempts: 2, backoff_ms: 5, max_backoff_ms: 10 },
    }),
  );
  return { file, dir };
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

async function query(out: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const result = await runAgora(['query', '--out', out, '--json', sql]);
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as Array<Record<string, unknown>>;
}

describe('council records go to records/debates/<run_id>/ (seed 003 §6), and every command finds them', () => {
  it('writes a council there by default, the other formats to transcripts/, and lists, shows, queries, reindexes and resumes both', async () => {
    const server = await mock();
    const { file, dir: cwd } = councilFile();
    const knockout = path.join(cwd, 'knockout.yaml');
    writeFileSync(knockout, stringify(testScenario({ rounds: 1, yCount: 2 })));
    const inCwd = (args: string[]) => runAgora(args, { cwd });
    expect((await inCwd(['run', file, '--host', server.url, '--quiet'])).code).toBe(0);
    expect((await inCwd(['run', knockout, '--host', server.url, '--quiet'])).code).toBe(0);

    const councilDir = onlyRunDir(path.join(cwd, 'records', 'debates'));
    const runId = path.basename(councilDir);
    expect(runId).toMatch(/^debate_\d{8}_\d{6}_[a-z0-9]{3}$/);
    for (const name of [
      'request.json',
      'rounds/round-1.json',
      'consensus.json',
      'final-packet.json',
      'final-packet.md',
    ]) {
      expect(existsSync(path.join(councilDir, name)), name).toBe(true);
    }
    expect(existsSync(path.join(cwd, 'records', 'debates', 'notes', `${runId}.md`))).toBe(true);
    const knockoutId = path.basename(onlyRunDir(path.join(cwd, 'transcripts')));

    const listed = JSON.parse((await inCwd(['runs', '--json'])).stdout) as Array<{
      runId: string;
      runDir: string;
    }>;
    expect(listed.map((run) => run.runId).sort()).toEqual([knockoutId, runId].sort());
    expect(listed.find((run) => run.runId === runId)?.runDir).toBe(councilDir);
    const shown = await inCwd(['show', runId]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^\*\*Result:\*\* The Judge chose "/m);
    const exported = await inCwd(['export', runId, '--html']);
    expect(exported.code).toBe(0);
    expect(existsSync(path.join(councilDir, 'transcript.html'))).toBe(true);
    expect((await inCwd(['resume', runId])).stdout).toMatch(/already completed/);
    // The run index is the runs folder's, and holds the council too, before and after a rebuild.
    const indexed = async () =>
      JSON.parse((await inCwd(['query', '--json', 'SELECT run_id FROM runs ORDER BY run_id'])).stdout);
    expect(await indexed()).toEqual(
      [{ run_id: knockoutId }, { run_id: runId }].sort((a, b) => a.run_id.localeCompare(b.run_id)),
    );
    expect(existsSync(path.join(cwd, 'records', 'debates', 'index.sqlite'))).toBe(false);
    rmSync(path.join(cwd, 'transcripts', 'index.sqlite'));
    expect((await inCwd(['reindex'])).stdout).toMatch(/Indexed 2 runs/);
    expect(await indexed()).toHaveLength(2);

    // --out names one folder for every run, councils included.
    const out = path.join(cwd, 'elsewhere');
    expect((await inCwd(['run', file, '--host', server.url, '--quiet', '--out', out])).code).toBe(0);
    expect(path.basename(onlyRunDir(out))).toMatch(/^debate_/);
  });
});

describe('council records: one run id, and the index views', () => {
  it('names the folder, request, packet, decision record and index row with one id, and answers the three questions', async () => {
    const server = await mock();
    const { file, dir } = councilFile();
    const out = path.join(dir, 'records', 'debates');
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(out);
    const runId = path.basename(runDir);
    expect(runId).toMatch(/^debate_\d{8}_\d{6}_[a-z0-9]{3}$/);
    expect(readJson(path.join(runDir, 'request.json')).run_id).toBe(runId);
    const packet = readJson(path.join(runDir, 'final-packet.json')) as {
      run_id: string;
      consensus: { consensus_score: number; confidence_score: number };
      decision: { selected_option: string };
      next_actions: Array<{ id: string; due: string }>;
    };
    expect(packet.run_id).toBe(runId);
    const record = readFileSync(path.join(out, 'notes', `${runId}.md`), 'utf8');
    expect(record).toContain(`run_id: ${runId}\n`);
    expect(record).not.toContain('packet_run_id');

    const runs = await query(out, 'SELECT * FROM debate_runs');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      run_id: runId,
      packet_run_id: runId,
      status: 'completed',
      consensus_score: packet.consensus.consensus_score,
      confidence_score: packet.consensus.confidence_score,
      selected_option: packet.decision.selected_option,
    });
    const turns = await query(out, 'SELECT role, round, claim, challenge, revision FROM debate_turns');
    expect(turns).toHaveLength(12);
    expect(turns.filter((turn) => turn.round === 2 && turn.challenge !== null)).toHaveLength(4);
    expect(turns.filter((turn) => turn.round === 3 && turn.revision !== null)).toHaveLength(4);
    expect(turns.every((turn) => typeof turn.claim === 'string' && typeof turn.role === 'string')).toBe(true);
    const actions = await query(out, 'SELECT run_id, action_id, status, due FROM debate_actions');
    expect(actions).toEqual(
      packet.next_actions.map((action) => ({
        run_id: runId,
        action_id: action.id,
        status: 'open',
        due: action.due,
      })),
    );
  });

  it('uses the id given with --run-id everywhere, as given', async () => {
    const server = await mock();
    const { file, dir } = councilFile();
    const out = path.join(dir, 'records', 'debates');
    const runId = 'debate_20261123_000000_abc';
    const args = ['run', file, '--host', server.url, '--out', out, '--quiet', '--run-id', runId];
    expect((await runAgora(args)).code).toBe(0);
    const runDir = path.join(out, runId);
    expect(readJson(path.join(runDir, 'request.json')).run_id).toBe(runId);
    expect(readJson(path.join(runDir, 'final-packet.json')).run_id).toBe(runId);
    expect(readFileSync(path.join(out, 'notes', `${runId}.md`), 'utf8')).toContain(`run_id: ${runId}\n`);
    expect(await query(out, 'SELECT run_id, packet_run_id FROM debate_runs')).toEqual([
      { run_id: runId, packet_run_id: runId },
    ]);
  });

  it('keeps the packet id of a run recorded before the ids were one, finished or resumed', async () => {
    const server = await mock();
    const { file, dir } = councilFile();
    const out = path.join(dir, 'runs');
    const runId = '20261123-062656-should-we-move-the-billing-database-s5';
    const args = ['run', file, '--host', server.url, '--out', out, '--quiet', '--run-id', runId];
    expect((await runAgora(args)).code).toBe(0);
    const runDir = path.join(out, runId);
    // Rewrite the log as an older engine wrote it: no marker at intake, no hash chain, stopped after
    // the consensus.
    const events = readEvents(runDir);
    const cut = events.findIndex((event) => event.type === 'artifact' && event.name === 'consensus');
    const legacy = events.slice(0, cut + 1).map(({ hash: _hash, prev: _prev, ...event }) => {
      if (event.type !== 'artifact' || event.name !== 'intake') return event;
      const { packet_run_id: _marker, ...data } = event.data as Record<string, unknown>;
      return { ...event, data };
    });
    writeFileSync(
      path.join(runDir, 'events.jsonl'),
      `${legacy.map((event) => JSON.stringify(event)).join('\n')}\n`,
    );
    const startedAt = String(events[0]?.at);
    const stamp = startedAt.replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
    const legacyId = `debate_${stamp}_${createHash('sha256').update(runId).digest('hex').slice(0, 3)}`;

    expect((await runAgora(['resume', runDir, '--host', server.url, '--quiet'])).code).toBe(0);
    expect(readJson(path.join(runDir, 'final-packet.json')).run_id).toBe(legacyId);
    const record = readFileSync(path.join(out, 'notes', `${legacyId}.md`), 'utf8');
    expect(record).toContain(`run_id: ${runId}\npacket_run_id: ${legacyId}\n`);
    expect((await runAgora(['reindex', '--out', out])).code).toBe(0);
    expect(await query(out, 'SELECT run_id, packet_run_id FROM debate_runs')).toEqual([
      { run_id: runId, packet_run_id: legacyId },
    ]);
    const shown = await runAgora(['show', legacyId, '--out', out]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(legacyId);
  });
});
