/**
 * A completed run whose process was killed after its last event was written, but before its
 * transcripts and its index row were rewritten, still reads "running" in them. Every command that
 * reads the run writes them anew from the log, and says how the run really ended.
 */
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { onlyRunDir } from '../helpers/transcripts.js';
import { useViewers } from '../helpers/viewer.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });
const viewers = useViewers();

const duel = {
  format: 'duel',
  topic: 'Remote work is better than the office',
  seed: 5,
  max_rounds: 1,
  debaters: { a: { name: 'Ada', model: 'llama3' }, b: { name: 'Blaise', model: 'mistral' } },
  judge: { name: 'Judge', model: 'llama3' },
  stop: { judge_early_stop: false },
};

/**
 * Puts the run back as a kill between its last event and the rewrite of its files leaves it: the
 * transcripts say "running" and are older than the log, and the index records it as running.
 */
function makeStale(runDir: string, outDir: string): void {
  const jsonFile = path.join(runDir, 'transcript.json');
  const markdownFile = path.join(runDir, 'transcript.md');
  const transcript = JSON.parse(readFileSync(jsonFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(
    jsonFile,
    `${JSON.stringify({ ...transcript, status: 'running', stopReason: null }, null, 2)}\n`,
  );
  writeFileSync(markdownFile, '# stale\n\nStatus: running\n');
  const logTime = statSync(path.join(runDir, 'events.jsonl')).mtime;
  const older = new Date(logTime.getTime() - 60_000);
  utimesSync(jsonFile, older, older);
  utimesSync(markdownFile, older, older);
  const index = new Database(path.join(outDir, 'index.sqlite'));
  try {
    index.prepare("UPDATE runs SET status = 'running', outcome = NULL").run();
  } finally {
    index.close();
  }
}

function expectFresh(runDir: string): void {
  const transcript = JSON.parse(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')) as {
    status: string;
  };
  expect(transcript.status).toBe('completed');
  expect(readFileSync(path.join(runDir, 'transcript.md'), 'utf8')).not.toContain('# stale');
  const logTime = statSync(path.join(runDir, 'events.jsonl')).mtimeMs;
  expect(statSync(path.join(runDir, 'transcript.json')).mtimeMs).toBeGreaterThanOrEqual(logTime);
}

function indexedStatus(outDir: string): string {
  const index = new Database(path.join(outDir, 'index.sqlite'), { readonly: true });
  try {
    return String((index.prepare('SELECT status FROM runs').get() as { status: string }).status);
  } finally {
    index.close();
  }
}

describe('a completed run whose files are older than its log', () => {
  it('is read as completed, and its files written anew, by every command that reads it', async () => {
    const server = await mock();
    const dir = tempDir();
    const file = path.join(dir, 'duel.yaml');
    writeFileSync(file, stringify(duel));
    const out = path.join(dir, 'runs');
    const run = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    expect(run.code).toBe(0);
    const runDir = onlyRunDir(out);
    const runId = path.basename(runDir);

    makeStale(runDir, out);
    const show = await runAgora(['show', runId, '--out', out]);
    expect(show.code).toBe(0);
    expectFresh(runDir);

    makeStale(runDir, out);
    const listed = await runAgora(['runs', '--out', out, '--json']);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<{ status: string }>)[0]?.status).toBe('completed');
    expectFresh(runDir);
    expect(indexedStatus(out)).toBe('completed');

    makeStale(runDir, out);
    const resume = await runAgora(['resume', runId, '--out', out, '--host', server.url]);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toContain('already completed');
    expectFresh(runDir);

    makeStale(runDir, out);
    const exported = await runAgora(['export', runId, '--html', '--out', out], { cwd: dir });
    expect(exported.code).toBe(0);
    expectFresh(runDir);

    makeStale(runDir, out);
    const board = await runAgora(['leaderboard', '--out', out, '--json']);
    expect(board.code).toBe(0);
    expect(indexedStatus(out)).toBe('completed');
    expectFresh(runDir);
    // The run is counted: the leaderboard's first table has a row for each debater's model.
    const tables = JSON.parse(board.stdout) as Array<{ rows: unknown[] }>;
    expect(tables.some((table) => table.rows.length > 0)).toBe(true);

    makeStale(runDir, out);
    const reindex = await runAgora(['reindex', '--out', out]);
    expect(reindex.code).toBe(0);
    expectFresh(runDir);
    expect(indexedStatus(out)).toBe('completed');

    makeStale(runDir, out);
    const viewer = await viewers({ outDir: out, ollamaHost: server.url });
    const page = await fetch(`${viewer.url}/runs/${runId}`);
    expect(page.status).toBe(200);
    expectFresh(runDir);
    makeStale(runDir, out);
    const list = await fetch(`${viewer.url}/`);
    expect(list.status).toBe(200);
    expect(await list.text()).toContain('completed');
    expectFresh(runDir);
    expect(indexedStatus(out)).toBe('completed');
  });
});
