/**
 * A completed run whose process was killed after its last event was written, but before its
 * transcripts and its index row were rewritten, still reads "running" in them. Every command that
 * reads the run writes them anew from the log, and says how the run really ended.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';
import { useViewers } from '../helpers/viewer.js';

const DERIVED = ['transcript.json', 'transcript.md'];

/** A run's transcripts, as they are. */
function filesOf(runDir: string): string[] {
  return DERIVED.map((name) => readFileSync(path.join(runDir, name), 'utf8'));
}

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

/**
 * The transcripts as the run wrote them before its last event (the run-end line): made by `show`
 * from a copy of the log without that line, so they are what a process killed between the line
 * and the rewrite of its files leaves behind.
 */
async function transcriptsBeforeTheEnd(runDir: string): Promise<string[]> {
  const earlier = path.join(tempDir(), path.basename(runDir));
  mkdirSync(earlier);
  const lines = readFileSync(path.join(runDir, 'events.jsonl'), 'utf8').trimEnd().split('\n');
  writeFileSync(path.join(earlier, 'events.jsonl'), `${lines.slice(0, -1).join('\n')}\n`);
  expect((await runAgora(['show', earlier])).code).toBe(0);
  const files = filesOf(earlier);
  expect((JSON.parse(files[0] as string) as { status: string }).status).toBe('running');
  return files;
}

function putBack(runDir: string, files: string[]): void {
  for (const [at, name] of DERIVED.entries()) writeFileSync(path.join(runDir, name), files[at] as string);
}

/** Gives the run's transcripts the log's own file time plus `ms`. */
function timedAsTheLog(runDir: string, ms: number): void {
  const logTime = statSync(path.join(runDir, 'events.jsonl')).mtime;
  const time = new Date(logTime.getTime() + ms);
  for (const name of DERIVED) utimesSync(path.join(runDir, name), time, time);
}

/**
 * The transcripts are the ones the run wrote at its end (`atEnd`), which say it completed and
 * record its log's last event as where they were made from.
 */
function expectMadeFromTheWholeLog(runDir: string, atEnd: string[]): void {
  const last = readEvents(runDir).at(-1) as unknown as { seq: number; hash: string };
  const transcript = JSON.parse(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')) as {
    status: string;
    logPosition: { seq: number; hash: string };
  };
  expect(transcript.status).toBe('completed');
  expect(filesOf(runDir)).toEqual(atEnd);
  expect(transcript.logPosition).toEqual({ seq: last.seq, hash: last.hash });
  expect(readFileSync(path.join(runDir, 'transcript.md'), 'utf8')).toContain(
    `<!-- made from events.jsonl up to event ${last.seq}, hash ${last.hash} -->`,
  );
}

describe('transcripts made before the last event, whatever their file times say', () => {
  async function completedRun(): Promise<{ out: string; runDir: string; runId: string; host: string }> {
    const server = await mock();
    const dir = tempDir();
    const file = path.join(dir, 'duel.yaml');
    writeFileSync(file, stringify(duel));
    const out = path.join(dir, 'runs');
    const run = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    expect(run.code).toBe(0);
    const runDir = onlyRunDir(out);
    return { out, runDir, runId: path.basename(runDir), host: server.url };
  }

  it('written in the same millisecond as the log, or later, are still written anew by show, resume and runs', async () => {
    const { out, runDir, runId, host } = await completedRun();
    const atEnd = filesOf(runDir);
    const earlier = await transcriptsBeforeTheEnd(runDir);

    putBack(runDir, earlier);
    timedAsTheLog(runDir, 0);
    const resume = await runAgora(['resume', runId, '--out', out, '--host', host]);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toContain('already completed');
    expectMadeFromTheWholeLog(runDir, atEnd);

    putBack(runDir, earlier);
    timedAsTheLog(runDir, 5_000);
    expect((await runAgora(['show', runId, '--out', out])).code).toBe(0);
    expectMadeFromTheWholeLog(runDir, atEnd);

    putBack(runDir, earlier);
    timedAsTheLog(runDir, 0);
    const listed = await runAgora(['runs', '--out', out, '--json']);
    expect((JSON.parse(listed.stdout) as Array<{ status: string }>)[0]?.status).toBe('completed');
    expectMadeFromTheWholeLog(runDir, atEnd);
  });

  it('transcripts written before files recorded their log position are written anew', async () => {
    const { out, runDir, runId } = await completedRun();
    const atEnd = filesOf(runDir);
    const jsonFile = path.join(runDir, 'transcript.json');
    const { logPosition: _position, ...older } = JSON.parse(readFileSync(jsonFile, 'utf8')) as Record<
      string,
      unknown
    >;
    writeFileSync(jsonFile, `${JSON.stringify({ ...older, status: 'running' }, null, 2)}\n`);
    timedAsTheLog(runDir, 5_000);
    expect((await runAgora(['show', runId, '--out', out])).code).toBe(0);
    expectMadeFromTheWholeLog(runDir, atEnd);
  });

  it('a run folder copied with cp -r or tar, its transcripts behind its log, is read as completed and its files written anew', async () => {
    const { runDir, runId } = await completedRun();
    const atEnd = filesOf(runDir);
    putBack(runDir, await transcriptsBeforeTheEnd(runDir));
    // Within one second, the transcripts older than the log (as a kill leaves them).
    const second = Math.floor(statSync(path.join(runDir, 'events.jsonl')).mtimeMs / 1000) * 1000;
    utimesSync(path.join(runDir, 'events.jsonl'), new Date(second + 900), new Date(second + 900));
    for (const name of DERIVED)
      utimesSync(path.join(runDir, name), new Date(second + 100), new Date(second + 100));

    // `cp -r` gives each file the time it was copied at: transcripts copied after the log look newer.
    const copied = path.join(tempDir(), 'runs');
    mkdirSync(copied);
    execFileSync('cp', ['-r', runDir, copied]);
    timedAsTheLog(path.join(copied, runId), 1_000);
    const resumeCopy = await runAgora(['resume', runId, '--out', copied]);
    expect(resumeCopy.code).toBe(0);
    expect(resumeCopy.stdout).toContain('already completed');
    expectMadeFromTheWholeLog(path.join(copied, runId), atEnd);

    // tar (its ustar and GNU formats) keeps file times to the second: log and transcripts now tie.
    const unpacked = path.join(tempDir(), 'runs');
    mkdirSync(unpacked);
    const archive = path.join(tempDir(), 'run.tar');
    execFileSync('tar', ['--format=ustar', '-cf', archive, '-C', path.dirname(runDir), runId]);
    execFileSync('tar', ['-xf', archive, '-C', unpacked]);
    expect(statSync(path.join(unpacked, runId, 'transcript.json')).mtimeMs).toBe(
      statSync(path.join(unpacked, runId, 'events.jsonl')).mtimeMs,
    );
    const show = await runAgora(['show', runId, '--out', unpacked]);
    expect(show.code).toBe(0);
    expectMadeFromTheWholeLog(path.join(unpacked, runId), atEnd);
  });
});
