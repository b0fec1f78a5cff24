/**
 * The shared run store on a real Postgres (a throwaway cluster), driven through the CLI as a team
 * would: `migrate`, `batch --database`, `worker` processes against their own mock Ollama servers,
 * `runs`/`pull`/`push`/`stop`/`reindex --check` with `--database`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type AgoraOptions, runAgora as runCli, startAgora as startCli, tempDir } from '../helpers/cli.js';
import { SMALL_SCENARIOS } from '../helpers/format-scenarios.js';
import { answerLate, useMockServers } from '../helpers/mock-servers.js';
import {
  mustRunDatabaseTests,
  postgresBin,
  startPostgres,
  type ThrowawayPostgres,
} from '../helpers/postgres.js';
import { expectChatsSplit } from '../helpers/routing.js';
import { comparable } from '../helpers/transcripts.js';
import { pageToken, startRun } from '../helpers/viewer.js';

const runs = postgresBin !== undefined || mustRunDatabaseTests;

/**
 * The CLI runs in a working folder of this file's own: the read commands given `--database`
 * without `--out` keep their copy of the database in `transcripts/.database/` under it, as a
 * user's would, and never in the checkout.
 */
const workingFolder = tempDir('agora-database-cwd-');
const runAgora = (args: string[], options: AgoraOptions = {}) =>
  runCli(args, { cwd: workingFolder, ...options });
const startAgora = (args: string[], options: AgoraOptions = {}) =>
  startCli(args, { cwd: workingFolder, ...options });

let server: ThrowawayPostgres;
let serial = 0;

/** A fresh database in the throwaway cluster, so tests do not see each other's runs. */
async function freshDatabase(password = ''): Promise<string> {
  serial += 1;
  const name = `agora_${process.pid}_${serial}`;
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  if (password) url.password = password;
  return url.toString();
}

async function sql<Row extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Every run in the database completed, its events numbered 0..n-1 once, with one run-end: nothing doubled or lost. */
async function expectAllCompletedOnce(url: string, count: number): Promise<void> {
  const rows = await sql<{ run_id: string; status: string }>(
    url,
    'SELECT run_id, status FROM agora_runs ORDER BY run_id',
  );
  expect(rows.map((row) => row.status)).toEqual(Array.from({ length: count }, () => 'completed'));
  for (const row of rows) {
    const events = await sql<{ seq: number; type: string }>(
      url,
      'SELECT seq, type FROM agora_events WHERE run_id = $1 ORDER BY seq',
      [row.run_id],
    );
    expect(events.map((event) => event.seq)).toEqual(events.map((_, at) => at));
    expect(events.filter((event) => event.type === 'run-end')).toHaveLength(1);
  }
}

/** How many events `worker` has committed. */
async function committedBy(url: string, worker: string): Promise<number> {
  const [row] = await sql<{ n: string }>(url, 'SELECT count(*) AS n FROM agora_events WHERE worker = $1', [
    worker,
  ]);
  return Number(row?.n ?? 0);
}

function scenarioFiles(formats: string[], dir = tempDir()): string[] {
  return formats.map((format) => {
    const file = path.join(dir, `${format}.yaml`);
    writeFileSync(file, stringify((SMALL_SCENARIOS[format] as () => Record<string, unknown>)()));
    return file;
  });
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function runFolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'events.jsonl')))
    .map((entry) => entry.name)
    .sort();
}

/**
 * A worker process on the simulator at `host`, that stops once nothing is queued or running;
 * `name` and `lease` (seconds) when a test follows it in the database.
 */
const startWorkerCli = (
  url: string,
  host: string,
  timeoutMs: number,
  options: { name?: string; lease?: number } = {},
) =>
  startAgora(
    [
      'worker',
      '--database',
      url,
      '--host',
      host,
      '--out',
      tempDir(),
      '--poll',
      '0.1',
      '--exit-when-idle',
    ].concat(
      options.name ? ['--name', options.name] : [],
      options.lease ? ['--lease', String(options.lease)] : [],
    ),
    { timeoutMs },
  );

const transcriptOf = (dir: string, runId: string) =>
  JSON.parse(readFileSync(path.join(dir, runId, 'transcript.json'), 'utf8'));

/** What two runs of the same debate share: all but times, ids and measured latencies. */
const sameDebate = (transcript: unknown) =>
  comparable(
    JSON.parse(
      JSON.stringify(transcript, (key, value) =>
        /latency|Ms$|^at$|_at$|^timestamps$|^note$/i.test(key) ? undefined : value,
      ),
    ),
  );

describe.runIf(runs)('runs on a shared Postgres, driven by workers', () => {
  const mock = useMockServers();
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses a database without the schema, or with a newer one, naming the fix; migrate is safe to repeat', async () => {
    const url = await freshDatabase();
    const before = await runAgora(['runs', '--database', url]);
    expect(before.code).toBe(11);
    expect(before.stderr).toContain('agora migrate --database URL');
    const first = await runAgora(['migrate', '--database', url]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('schema version 1 (applied 1)');
    const again = await runAgora(['migrate', '--database', url]);
    expect(again.stdout).toContain('up to date');
    await sql(url, "INSERT INTO agora_schema_version (version, name) VALUES (99, 'from the future')");
    const newer = await runAgora(['runs', '--database', url]);
    expect(newer.code).toBe(11);
    expect(newer.stderr).toMatch(/schema version 99, newer than this program's 1/);
    const unreachable = await runAgora(['runs', '--database', 'postgres://agora:pw@127.0.0.1:1/x']);
    expect(unreachable.code).toBe(11);
    expect(unreachable.stderr).toContain('cannot reach the database at postgres://agora:***@127.0.0.1:1/x');
    expect(unreachable.stderr).not.toContain(':pw@');
  });

  it('every format runs on the database; runs, reindex --check, leaderboard, query and the viewer answer as on files; pull is byte-identical', async () => {
    const url = await freshDatabase('s3cret-Passw0rd');
    expect((await runAgora(['migrate', '--database', url])).code).toBe(0);
    const files = scenarioFiles(['knockout', 'formal', 'duel', 'critique', 'council']);
    const queued = await runAgora(['batch', '--database', url, ...files, '--seeds', '7']);
    expect(queued.code).toBe(0);
    expect(queued.stdout).toContain('queued 5 debates');
    const again = await runAgora(['batch', '--database', url, ...files, '--seeds', '7']);
    expect(again.stdout).toContain('queued 0 debates');
    expect(again.stdout).toContain('5 debates already there');
    const simulator = await mock();
    const work = tempDir();
    const worker = await runAgora(
      [
        'worker',
        '--database',
        url,
        '--host',
        simulator.url,
        '--out',
        work,
        '--exit-when-idle',
        '--poll',
        '0.1',
      ],
      { timeoutMs: 600_000 },
    );
    expect(worker.code).toBe(0);
    expect(worker.stderr).toContain('stopped after 5 debates (5 completed)');

    // The same batch on files, with the same seeds, on its own simulator.
    const local = tempDir();
    const other = await mock();
    const onFiles = await runAgora(['batch', ...files, '--seeds', '7', '--host', other.url, '--out', local], {
      timeoutMs: 600_000,
    });
    expect(onFiles.code).toBe(0);
    const ids = runFolders(local);
    expect(ids).toHaveLength(5);

    const pulled = tempDir();
    const pull = await runAgora(['pull', '--database', url, '--out', pulled]);
    expect(pull.code).toBe(0);
    expect(runFolders(pulled)).toEqual(ids);
    for (const id of ids) {
      // The copy is the worker's own record, byte for byte; and the same debate as on files.
      for (const file of ['events.jsonl', 'transcript.json', 'transcript.md']) {
        expect(readFileSync(path.join(pulled, id, file), 'utf8')).toBe(
          readFileSync(path.join(work, id, file), 'utf8'),
        );
      }
      expect(sameDebate(transcriptOf(pulled, id))).toEqual(sameDebate(transcriptOf(local, id)));
    }

    const listing = (result: { stdout: string }) =>
      (JSON.parse(result.stdout) as Array<Record<string, unknown>>).map((run) => [
        run.runId,
        run.format,
        run.status,
        run.progress,
        run.stopReason,
        run.outcome,
        run.batch,
      ]);
    const fromDatabase = await runAgora(['runs', '--json', '--database', url]);
    const fromFiles = await runAgora(['runs', '--json', '--out', local]);
    expect(listing(fromDatabase)).toEqual(listing(fromFiles));
    expect(listing(fromDatabase).map((row) => row[2])).toEqual(Array(5).fill('completed'));
    const shown = await runAgora(['show', ids[1] as string, '--database', url]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe((await runAgora(['show', ids[1] as string, '--out', pulled])).stdout);
    const check = await runAgora(['reindex', '--check', '--database', url]);
    expect(check.stdout).toContain('The index matches the event logs.');
    const boardDb = await runAgora(['leaderboard', '--database', url], { env: { COLUMNS: '200' } });
    const boardFiles = await runAgora(['leaderboard', '--out', local], { env: { COLUMNS: '200' } });
    expect(boardDb.code).toBe(0);
    expect(boardDb.stdout).toBe(boardFiles.stdout);
    const question =
      'SELECT run_id, format, status, stop_reason, done, total, model_calls, output_tokens, outcome FROM runs ORDER BY run_id';
    const queryDb = await runAgora(['query', question, '--json', '--database', url]);
    expect(queryDb.code, queryDb.stderr).toBe(0);
    expect(queryDb.stdout).toBe((await runAgora(['query', question, '--json', '--out', local])).stdout);
    // The batch's record travels with its runs: places, seeds and scenario files as on files.
    const members =
      'SELECT batch_id, idx, run_id, scenario_file, seed, lineup FROM batch_runs ORDER BY run_id';
    const membersDb = await runAgora(['query', members, '--json', '--database', url]);
    expect(JSON.parse(membersDb.stdout)).toHaveLength(5);
    expect(membersDb.stdout).toBe((await runAgora(['query', members, '--json', '--out', local])).stdout);
    const html = path.join(tempDir(), 'run.html');
    const exported = await runAgora([
      'export',
      ids[0] as string,
      '--html',
      '--output',
      html,
      '--database',
      url,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain(ids[0] as string);

    // The viewer: the same runs and the same leaderboard from the database as from the files.
    const viewerApi = async (args: string[]) => {
      const serve = startAgora(['serve', '--port', '0', ...args], { timeoutMs: 600_000 });
      let address = '';
      serve.child.stdout?.on('data', (chunk: Buffer) => {
        address ||= /Agora viewer at (http:\/\/\S+)/.exec(String(chunk))?.[1] ?? '';
      });
      try {
        await until(async () => address !== '', 'the viewer to start');
        const runsSeen = (await (await fetch(`${address}/api/runs`)).json()) as Array<
          Record<string, unknown>
        >;
        const board = await (await fetch(`${address}/api/leaderboard`)).json();
        return {
          runs: runsSeen.map(({ runDir: _runDir, ...rest }) => rest),
          board,
        };
      } finally {
        serve.child.kill('SIGINT');
        await serve.result;
      }
    };
    const viewedDb = await viewerApi(['--database', url, '--out', tempDir()]);
    // The same runs as files: the copy `pull` made.
    const viewedFiles = await viewerApi(['--out', pulled]);
    expect(viewedDb.runs).toHaveLength(5);
    expect(viewedDb).toEqual(viewedFiles);

    // push: the local runs into another database, and back out, unchanged.
    const second = await freshDatabase();
    expect((await runAgora(['migrate', '--database', second])).code).toBe(0);
    const push = await runAgora(['push', local, '--database', second]);
    expect(push.stdout).toContain('Pushed 5 runs');
    expect((await runAgora(['push', local, '--database', second])).stdout).toContain('5 runs already there');
    const back = tempDir();
    expect((await runAgora(['pull', '--database', second, '--out', back])).code).toBe(0);
    for (const id of ids) {
      for (const file of ['events.jsonl', 'transcript.json', 'transcript.md']) {
        expect(readFileSync(path.join(back, id, file), 'utf8')).toBe(
          readFileSync(path.join(local, id, file), 'utf8'),
        );
      }
    }

    // The password is in no output and no file the commands wrote.
    const everything = [queued, worker, pull, fromDatabase, check, boardDb]
      .map((result) => result.stdout + result.stderr)
      .join('\n');
    expect(everything).not.toContain('s3cret-Passw0rd');
    for (const dir of [work, pulled]) {
      const text = filesUnder(dir)
        .map((file) => readFileSync(file, 'utf8'))
        .join('\n');
      expect(text).not.toContain('s3cret-Passw0rd');
    }
  });

  it('three workers run a 12-debate batch; a killed worker and a paused one lose their runs to the others, and every transcript equals a local run', async () => {
    const url = await freshDatabase();
    expect((await runAgora(['migrate', '--database', url])).code).toBe(0);
    const [file] = scenarioFiles(['duel']);
    const seeds = Array.from({ length: 12 }, (_, at) => at + 1).join(',');
    expect((await runAgora(['batch', '--database', url, file as string, '--seeds', seeds])).code).toBe(0);
    // Slow enough that a worker is always in the middle of a model call.
    const hosts = await Promise.all([mock({ speed: 0.05 }), mock({ speed: 0.05 }), mock({ speed: 0.05 })]);
    const names = ['w-a', 'w-b', 'w-c'];
    const work = names.map(() => tempDir());
    const workers = names.map((name, at) =>
      startAgora(
        [
          'worker',
          '--database',
          url,
          '--host',
          (hosts[at] as { url: string }).url,
          '--out',
          work[at] as string,
          '--name',
          name,
          '--lease',
          '3',
          '--poll',
          '0.1',
          '--exit-when-idle',
        ],
        { timeoutMs: 600_000 },
      ),
    );
    const owned = async (name: string) =>
      (
        await sql<{ run_id: string }>(
          url,
          "SELECT run_id FROM agora_runs WHERE owner = $1 AND status = 'running'",
          [name],
        )
      ).map((row) => row.run_id);
    // Kill w-a in the middle of a run it has written to. It is stopped first, so the runs it holds
    // cannot end between reading them and the kill (a run's end releases it in the same commit).
    const heldMidRun = async (name: string) =>
      (
        await sql<{ run_id: string }>(
          url,
          `SELECT run_id FROM agora_runs r WHERE owner = $1 AND status = 'running'
             AND EXISTS (SELECT 1 FROM agora_events e WHERE e.run_id = r.run_id AND e.worker = $1)`,
          [name],
        )
      ).map((row) => row.run_id);
    let killedRuns: string[] = [];
    for (let attempt = 0; attempt < 20 && killedRuns.length === 0; attempt += 1) {
      await until(
        async () => (await committedBy(url, 'w-a')) >= 3 && (await heldMidRun('w-a')).length > 0,
        'w-a at work',
      );
      workers[0]?.child.kill('SIGSTOP');
      killedRuns = await heldMidRun('w-a');
      if (killedRuns.length === 0) workers[0]?.child.kill('SIGCONT');
    }
    workers[0]?.child.kill('SIGKILL');
    await workers[0]?.result;
    // A commit already sent when w-a was stopped may still have ended one of its runs: that run was
    // finished by w-a itself, not lost to the others.
    const endedByItself = new Set(
      (
        await sql<{ run_id: string }>(
          url,
          "SELECT run_id FROM agora_runs WHERE run_id = ANY($1) AND status <> 'running'",
          [killedRuns],
        )
      ).map((row) => row.run_id),
    );
    killedRuns = killedRuns.filter((runId) => !endedByItself.has(runId));
    expect(killedRuns.length).toBeGreaterThan(0);
    // Pause w-b past its lease while it holds a run; wait until another worker has taken that run.
    const epochs = async (runIds: string[]) =>
      sql<{ run_id: string; lease_epoch: number; owner: string | null }>(
        url,
        'SELECT run_id, lease_epoch, owner FROM agora_runs WHERE run_id = ANY($1) ORDER BY run_id',
        [runIds],
      );
    let frozen: Array<{ run_id: string; lease_epoch: number; owner: string | null }> = [];
    for (let attempt = 0; attempt < 20 && frozen.length === 0; attempt += 1) {
      await until(async () => (await owned('w-b')).length > 0, 'w-b at work');
      workers[1]?.child.kill('SIGSTOP');
      await new Promise((resolve) => setTimeout(resolve, 300));
      frozen = await epochs(await owned('w-b'));
      if (frozen.length === 0) workers[1]?.child.kill('SIGCONT');
    }
    expect(frozen.length).toBeGreaterThan(0);
    await until(
      async () =>
        (await epochs(frozen.map((run) => run.run_id))).every(
          (run, at) => run.lease_epoch > (frozen[at] as { lease_epoch: number }).lease_epoch,
        ),
      'the paused worker’s runs taken over',
    );
    const pausedAt = (await sql<{ now: Date }>(url, 'SELECT now() AS now'))[0]?.now as Date;
    workers[1]?.child.kill('SIGCONT');

    const results = await Promise.all(workers.slice(1).map((worker) => worker.result));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    expect(results[0]?.stderr).toMatch(/lost: /);

    await expectAllCompletedOnce(url, 12);
    // The killed worker's runs were finished by others; the paused one appended nothing after its pause.
    for (const runId of killedRuns) {
      const writers = await sql<{ worker: string }>(
        url,
        'SELECT DISTINCT worker FROM agora_events WHERE run_id = $1',
        [runId],
      );
      expect(writers.map((writer) => writer.worker)).toContain('w-a');
      expect(writers.length).toBeGreaterThan(1);
    }
    const late = await sql<{ n: string }>(
      url,
      "SELECT count(*) AS n FROM agora_events WHERE worker = 'w-b' AND run_id = ANY($1) AND committed_at > $2",
      [frozen.map((run) => run.run_id), pausedAt],
    );
    expect(Number(late[0]?.n)).toBe(0);

    // Every transcript is the one a single local run with the same seed gives.
    const pulled = tempDir();
    expect((await runAgora(['pull', '--database', url, '--out', pulled])).code).toBe(0);
    const local = tempDir();
    const simulator = await mock();
    const onFiles = await runAgora(
      ['batch', file as string, '--seeds', seeds, '--host', simulator.url, '--out', local],
      {
        timeoutMs: 600_000,
      },
    );
    expect(onFiles.code).toBe(0);
    const ids = runFolders(local);
    expect(runFolders(pulled)).toEqual(ids);
    for (const id of ids)
      expect(sameDebate(transcriptOf(pulled, id))).toEqual(sameDebate(transcriptOf(local, id)));
  });

  it('a worker paused in the middle of a transaction holds up no takeover: the server ends its session, and it appends nothing', async () => {
    const url = await freshDatabase();
    expect((await runAgora(['migrate', '--database', url])).code).toBe(0);
    const [file] = scenarioFiles(['duel']);
    expect((await runAgora(['batch', '--database', url, file as string, '--seeds', '1,2,3,4'])).code).toBe(0);
    const worker = (name: string, host: string) => startWorkerCli(url, host, 600_000, { name, lease: 3 });
    const paused = worker('w-paused', (await mock({ speed: 0.05 })).url);
    const pid = paused.child.pid as number;
    const watcher = new pg.Client({ connectionString: url });
    watcher.on('error', () => undefined);
    await watcher.connect();
    // The paused worker's session, when it is inside a transaction.
    const inTransaction = async (states: string[]) =>
      (
        await watcher.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
            WHERE application_name = 'agora worker w-paused' AND xact_start IS NOT NULL AND state = ANY($1)`,
          [states],
        )
      ).rows;
    const runningOf = async (owner: string) =>
      (
        await watcher.query<{ run_id: string; lease_epoch: number }>(
          "SELECT run_id, lease_epoch FROM agora_runs WHERE owner = $1 AND status = 'running'",
          [owner],
        )
      ).rows;
    // Catch the worker between a step's BEGIN and its COMMIT (it holds the run's row lock there):
    // look, stop it, and keep it stopped if its session then sits idle inside the transaction.
    let held: { run_id: string; lease_epoch: number } | undefined;
    let stalled: number[] = [];
    const deadline = Date.now() + 600_000;
    try {
      while (held === undefined && Date.now() < deadline) {
        if ((await inTransaction(['active', 'idle in transaction'])).length === 0) continue;
        process.kill(pid, 'SIGSTOP');
        await new Promise((resolve) => setTimeout(resolve, 150));
        const [run] = await runningOf('w-paused');
        stalled = (await inTransaction(['idle in transaction'])).map((session) => session.pid);
        if (run && stalled.length > 0) held = run;
        else process.kill(pid, 'SIGCONT');
      }
    } finally {
      await watcher.end();
    }
    expect(held, 'the worker was never caught inside a step’s transaction').toBeDefined();
    const other = worker('w-other', (await mock({ speed: 0.05 })).url);
    // The stalled session's lock goes with it after 3 s (the lease), and the run is taken over.
    await until(
      async () =>
        Number(
          (
            await sql<{ epoch: number }>(
              url,
              'SELECT lease_epoch AS epoch FROM agora_runs WHERE run_id = $1',
              [held?.run_id],
            )
          )[0]?.epoch,
        ) > (held?.lease_epoch as number),
      'the paused worker’s run taken over',
    );
    // Taken over by the lease and the sweep, not by waiting for the paused worker to come back: it
    // is stopped until after the takeover is seen. (How soon it comes is measured in bench/, not here.)
    // The server ended the session the paused worker held the lock in.
    // (A session that had only begun a transaction, holding nothing, goes the same way a moment later.)
    await until(
      async () =>
        (await sql(url, 'SELECT pid FROM pg_stat_activity WHERE pid = ANY($1)', [stalled])).length === 0,
      'the stalled sessions ended by the server',
    );
    const pausedUntil = (await sql<{ now: Date }>(url, 'SELECT now() AS now'))[0]?.now as Date;
    process.kill(pid, 'SIGCONT');
    const [first, second] = await Promise.all([paused.result, other.result]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(first.stderr).toMatch(/lost: /);
    await expectAllCompletedOnce(url, 4);
    const events = await sql<{ seq: number; worker: string; committed_at: Date }>(
      url,
      'SELECT seq, worker, committed_at FROM agora_events WHERE run_id = $1 ORDER BY seq',
      [held?.run_id],
    );
    expect(events.map((event) => event.seq)).toEqual(events.map((_, at) => at));
    expect(events.filter((event) => event.worker === 'w-paused' && event.committed_at > pausedUntil)).toEqual(
      [],
    );
    expect(events.some((event) => event.worker === 'w-other')).toBe(true);
  });

  it('a worker rides out a database restart: it says so, tries again, and the batch completes', async () => {
    const url = await freshDatabase();
    expect((await runAgora(['migrate', '--database', url])).code).toBe(0);
    const [file] = scenarioFiles(['duel']);
    expect((await runAgora(['batch', '--database', url, file as string, '--seeds', '1,2'])).code).toBe(0);
    const simulator = await mock({ speed: 0.05 });
    const worker = startWorkerCli(url, simulator.url, 600_000, { name: 'w-r', lease: 3 });
    await until(
      async () =>
        Number((await sql<{ n: string }>(url, 'SELECT count(*) AS n FROM agora_events'))[0]?.n) >= 3,
      'the first steps committed',
    );
    // Down for longer than the worker's poll, so its loop meets the closed door.
    await server.restart(1500);
    const result = await worker.result;
    expect(result.code, result.stderr).toBe(0);
    // Its session ended, or the server refused it while starting again: either way it goes on.
    expect(result.stderr).toMatch(/\[w-r\] .*database at .*; trying again/);
    expect(result.stderr).toContain('the database answers again');
    // A run whose commit failed was taken up again, and is counted once, completed.
    const lost = [...result.stderr.matchAll(/lost: (\S+)/g)].map((match) => match[1]);
    for (const runId of lost) expect(result.stderr).toMatch(new RegExp(`took over ${runId} at event \\d+`));
    expect(result.stderr).toContain('stopped after 2 debates (2 completed)');
    await expectAllCompletedOnce(url, 2);
  });

  it('a worker sends a scenario’s routed models to the server its own environment names', async () => {
    const url = await freshDatabase();
    expect((await runAgora(['migrate', '--database', url])).code).toBe(0);
    const dir = tempDir();
    const file = path.join(dir, 'duel.yaml');
    writeFileSync(
      file,
      stringify(
        (SMALL_SCENARIOS.duel as (extra: Record<string, unknown>) => Record<string, unknown>)({
          providers: {
            local: {
              type: 'openai',
              base_url: 'http://127.0.0.1:9/v1',
              api_key_env: 'AGORA_TEST_LLM_KEY',
              models: ['mistral'],
            },
          },
        }),
      ),
    );
    expect((await runAgora(['batch', '--database', url, file, '--seeds', '1'])).code).toBe(0);
    const simulator = await mock();
    const key = 'sk-worker-host-key-1234';
    const drain = (env: Record<string, string>) =>
      runAgora(
        ['worker', '--database', url, '--host', simulator.url, '--out', tempDir()].concat([
          '--poll',
          '0.1',
          '--exit-when-idle',
        ]),
        { env, timeoutMs: 600_000 },
      );
    const worker = await drain({ AGORA_TEST_LLM_KEY: key, AGORA_PROVIDER_LOCAL_URL: `${simulator.url}/v1` });
    expect(worker.code, worker.stderr).toBe(0);
    expect(worker.stderr).toContain('(1 completed)');
    expectChatsSplit(simulator, { ollama: 'llama3', openai: 'mistral', key });
    const lines = await sql<{ line: string }>(url, 'SELECT line FROM agora_events');
    expect(lines.map((row) => row.line).join('\n')).not.toContain(key);

    // A host without the key variable fails the run, saying which variable; `resume` queues it
    // again, and a host with the key finishes it.
    expect((await runAgora(['batch', '--database', url, file, '--seeds', '2'])).code).toBe(0);
    const keyless = await drain({ AGORA_TEST_LLM_KEY: '' });
    expect(keyless.stderr).toMatch(/failed: \S+ \(.*AGORA_TEST_LLM_KEY, which is not set/);
    const failedRun = keyless.stderr.match(/failed: (\S+) /)?.[1] as string;
    const statusOf = async () =>
      (await sql<{ status: string }>(url, 'SELECT status FROM agora_runs WHERE run_id = $1', [failedRun]))[0]
        ?.status;
    expect(await statusOf()).toBe('failed');
    const resumed = await runAgora(['resume', failedRun, '--database', url, '--out', tempDir()]);
    expect(resumed.stdout).toContain('queued again for the workers');
    const keyed = await drain({ AGORA_TEST_LLM_KEY: key, AGORA_PROVIDER_LOCAL_URL: `${simulator.url}/v1` });
    expect(keyed.code, keyed.stderr).toBe(0);
    expect(await statusOf()).toBe('completed');
  });

  it('stop: a queued run never starts; a running one stops after the step in flight', async () => {
    const url = await freshDatabase();
    expect((await runAgora(['migrate', '--database', url])).code).toBe(0);
    const [file] = scenarioFiles(['duel']);
    const queued = await runAgora(['batch', '--database', url, file as string, '--seeds', '1,2', '--json']);
    const [first, second] = (JSON.parse(queued.stdout) as { queued: string[] }).queued;
    const stopQueued = await runAgora(['stop', second as string, '--database', url]);
    expect(stopQueued.stdout).toContain('no worker will start it');
    // Every answer takes 4 s more: the run cannot finish while `agora stop` starts, however busy
    // the machine, and the step in flight still ends soon after it.
    const simulator = await mock({ speed: 0.5, script: [{ latencyMs: 4000 }] });
    const worker = startWorkerCli(url, simulator.url, 600_000);
    await until(
      async () =>
        Number(
          (
            await sql<{ n: string }>(url, 'SELECT next_seq AS n FROM agora_runs WHERE run_id = $1', [first])
          )[0]?.n,
        ) >= 2,
      'the first run under way',
    );
    const stopRunning = await runAgora(['stop', first as string, '--database', url]);
    expect(stopRunning.stdout).toContain('after the step in flight');
    expect((await worker.result).code).toBe(0);
    const statuses = await sql<{ run_id: string; status: string }>(
      url,
      'SELECT run_id, status FROM agora_runs ORDER BY run_id',
    );
    expect(statuses.map((row) => row.status)).toEqual(['stopped', 'stopped']);
    const ends = await sql<{ line: string }>(
      url,
      "SELECT line FROM agora_events WHERE run_id = $1 AND type = 'run-end'",
      [first],
    );
    expect(JSON.parse(ends[0]?.line as string)).toMatchObject({
      status: 'stopped',
      stopReason: 'manual-stop',
    });
    expect(
      Number(
        (
          await sql<{ n: string }>(url, 'SELECT count(*) AS n FROM agora_events WHERE run_id = $1', [second])
        )[0]?.n,
      ),
    ).toBe(0);
  });

  it('run --database keeps a single debate in the database step by step; resume --database goes on from there', async () => {
    const url = await freshDatabase();
    expect((await runAgora(['migrate', '--database', url])).code).toBe(0);
    const [file] = scenarioFiles(['knockout']);
    const simulator = await mock({ speed: 0.3 });
    // The stopped run's last round is judged a minute late, so it is still going when Ctrl-C comes
    // unless that is a minute late (a stop waits for the step in flight: a call that never answered
    // would hold it for ever). It is resumed on `simulator`.
    const slowed = await mock({
      speed: 0.3,
      script: [answerLate({ text: '## Your task: evaluate round 2\n' })],
    });
    const out = tempDir();
    const started = startAgora(
      ['run', file as string, '--database', url, '--host', slowed.url, '--out', out, '--quiet'],
      {
        timeoutMs: 600_000,
      },
    );
    const committed = async () =>
      Number((await sql<{ n: string }>(url, 'SELECT count(*) AS n FROM agora_events'))[0]?.n ?? 0);
    await until(async () => (await committed()) >= 3, 'the first steps committed');
    started.child.kill('SIGINT');
    const stopped = await started.result;
    expect(stopped.code).toBe(130);
    expect(stopped.stdout).toMatch(/Continue with: npm run agora -- resume \S+ --database URL/);
    const [row] = await sql<{ run_id: string; status: string; next_seq: number }>(
      url,
      'SELECT run_id, status, next_seq FROM agora_runs',
    );
    expect(row?.status).toBe('stopped');
    // The folder holds exactly what the database holds.
    const runId = row?.run_id as string;
    expect(
      readFileSync(path.join(out, runId, 'events.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(row?.next_seq as number);

    const elsewhere = tempDir();
    const resumed = await runAgora(
      ['resume', runId, '--database', url, '--host', simulator.url, '--out', elsewhere, '--quiet'],
      {
        timeoutMs: 600_000,
      },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await sql<{ status: string }>(url, 'SELECT status FROM agora_runs'))[0]?.status).toBe(
      'completed',
    );
    const resumeAgain = (name: string) =>
      runAgora(['resume', name, '--database', url, '--host', simulator.url, '--out', elsewhere]);
    const again = await resumeAgain(runId);
    expect(again.stdout).toContain('already completed');

    // The same debate as one run straight through on files.
    const straight = tempDir();
    expect(
      (await runAgora(['run', file as string, '--host', simulator.url, '--out', straight, '--quiet'])).code,
    ).toBe(0);
    const [local] = runFolders(straight);
    expect(sameDebate(transcriptOf(elsewhere, runId))).toEqual(
      sameDebate(transcriptOf(straight, local as string)),
    );
    const pulled = tempDir();
    expect((await runAgora(['pull', runId, '--database', url, '--out', pulled])).code).toBe(0);
    expect(readFileSync(path.join(pulled, runId, 'transcript.md'), 'utf8')).toBe(
      readFileSync(path.join(elsewhere, runId, 'transcript.md'), 'utf8'),
    );

    // The run named as a user types it, in the database too: the start of its id, or latest.
    const byPrefix = tempDir();
    expect((await runAgora(['pull', runId.slice(0, 13), '--database', url, '--out', byPrefix])).code).toBe(0);
    expect(readdirSync(byPrefix)).toContain(runId);
    const latest = await resumeAgain('latest');
    expect(latest.stdout).toContain(`Run ${runId} already completed`);
    const shown = await runAgora(['show', 'latest', '--database', url, '--out', tempDir(), '--json']);
    expect(JSON.parse(shown.stdout).runId).toBe(runId);
    const stop = await runAgora(['stop', runId.slice(0, 8), '--database', url]);
    expect(stop.stdout).toBe(`${runId} is completed; nothing to stop.\n`);
  });

  it("serve --database shows every worker's runs live, from the database's notices, and keeps a debate started from the page there", async () => {
    const url = await freshDatabase();
    expect((await runAgora(['migrate', '--database', url])).code).toBe(0);
    const viewerFolder = tempDir();
    const simulator = await mock({ speed: 0.3 });
    const serve = startAgora(
      ['serve', '--database', url, '--port', '0', '--out', viewerFolder, '--host', simulator.url],
      { timeoutMs: 600_000 },
    );
    let address = '';
    serve.child.stdout?.on('data', (chunk: Buffer) => {
      address ||= /Agora viewer at (http:\/\/\S+)/.exec(String(chunk))?.[1] ?? '';
    });
    try {
      await until(async () => address !== '', 'the viewer to start');
      const [file] = scenarioFiles(['duel']);
      const queued = await runAgora(['batch', '--database', url, file as string, '--seeds', '4', '--json']);
      const [runId] = (JSON.parse(queued.stdout) as { queued: string[] }).queued;
      const worker = startWorkerCli(url, simulator.url, 600_000);
      const seen: Array<{ live: boolean; status: string; events: number }> = [];
      await until(async () => {
        const response = await fetch(`${address}/api/runs/${runId}`);
        if (response.status !== 200) return false;
        const view = (await response.json()) as {
          live: boolean;
          progress: { status: string };
          events: unknown[];
        };
        seen.push({ live: view.live, status: view.progress.status, events: view.events.length });
        return view.progress.status === 'completed';
      }, 'the run to show completed in the viewer');
      expect((await worker.result).code).toBe(0);
      // It was shown live while the worker drove it, event by event, then finished.
      expect(seen.some((view) => view.live && view.status === 'running')).toBe(true);
      expect(new Set(seen.map((view) => view.events)).size).toBeGreaterThan(2);
      expect(seen.at(-1)?.live).toBe(false);
      const listed = (await (await fetch(`${address}/api/runs`)).json()) as Array<{ runId: string }>;
      expect(listed.map((run) => run.runId)).toContain(runId);

      // A debate started from the page is kept in the database too, step by step, to its end.
      const page = { url: address, port: 0, close: async () => undefined };
      const started = await startRun(page, await pageToken(page), {
        format: 'duel',
        topic: 'Trains beat planes',
        rounds: '1',
      });
      const rowOf = async () =>
        (
          await sql<{ status: string; next_seq: number }>(
            url,
            'SELECT status, next_seq FROM agora_runs WHERE run_id = $1',
            [started],
          )
        )[0];
      await until(
        async () => (await rowOf())?.status === 'completed',
        'the page’s debate completed in the database',
      );
      // The viewer's runs folder is its copy of the database, where the page's debate ran.
      const [copy] = readdirSync(path.join(viewerFolder, '.database'));
      const events = readFileSync(
        path.join(viewerFolder, '.database', copy as string, started, 'events.jsonl'),
        'utf8',
      )
        .trim()
        .split('\n');
      const committed = await sql<{ line: string }>(
        url,
        'SELECT line FROM agora_events WHERE run_id = $1 ORDER BY seq',
        [started],
      );
      expect(committed.map((row) => row.line)).toEqual(events);
    } finally {
      serve.child.kill('SIGINT');
      await serve.result;
    }
  });

  it('a worker whose model server goes away hands its run over, and another worker finishes it', async () => {
    const url = await freshDatabase();
    expect((await runAgora(['migrate', '--database', url])).code).toBe(0);
    const [file] = scenarioFiles(['duel']);
    expect((await runAgora(['batch', '--database', url, file as string, '--seeds', '1,2,3'])).code).toBe(0);
    // The doomed server never answers a last round's judge, so its worker still holds a run when the
    // server goes away, however late that is.
    const doomed = await mock({
      speed: 0.3,
      script: [{ match: { prompt: '## Your task: judge round 2\n' }, fault: 'hang' }],
    });
    const healthy = await mock({ speed: 0.3 });
    const first = startWorkerCli(url, doomed.url, 600_000, { name: 'w-doomed', lease: 3 });
    await until(async () => (await committedBy(url, 'w-doomed')) >= 2, 'the first worker at work');
    const held = (
      await sql<{ run_id: string }>(
        url,
        "SELECT run_id FROM agora_runs WHERE owner = 'w-doomed' AND status = 'running'",
      )
    ).map((row) => row.run_id);
    expect(held.length).toBeGreaterThan(0);
    await doomed.close();
    const second = startWorkerCli(url, healthy.url, 600_000, { name: 'w-healthy', lease: 3 });
    const [one, two] = await Promise.all([first.result, second.result]);
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    expect(one.stderr).toMatch(/handed over .*(cannot reach|unreachable|not reachable|connect)/i);
    const statuses = await sql<{ status: string }>(url, 'SELECT status FROM agora_runs');
    expect(statuses.map((row) => row.status)).toEqual(['completed', 'completed', 'completed']);
    for (const runId of held) {
      const writers = await sql<{ worker: string }>(
        url,
        'SELECT DISTINCT worker FROM agora_events WHERE run_id = $1',
        [runId],
      );
      expect(writers.map((writer) => writer.worker).sort()).toEqual(['w-doomed', 'w-healthy']);
    }
  });

  it('a worker stopped with Ctrl-C finishes its step, hands its run back, and another worker goes on at once', async () => {
    const url = await freshDatabase();
    expect((await runAgora(['migrate', '--database', url])).code).toBe(0);
    const [file] = scenarioFiles(['duel']);
    expect((await runAgora(['batch', '--database', url, file as string, '--seeds', '9'])).code).toBe(0);
    // The last round is judged a minute late here, so the first worker is still at the debate when
    // Ctrl-C comes unless that is a minute late (it finishes its step in flight, so the call must
    // end by itself). The second worker finds a server without that delay on the same port.
    const simulator = await mock({
      speed: 0.3,
      script: [answerLate({ prompt: '## Your task: judge round 2\n' })],
    });
    // A long lease: the second worker can only go on at once if the first gave the run back.
    const common = ['--database', url, '--host', simulator.url, '--lease', '600', '--poll', '0.1'];
    const first = startAgora(['worker', ...common, '--out', tempDir(), '--name', 'w-leaving'], {
      timeoutMs: 600_000,
    });
    await until(async () => (await committedBy(url, 'w-leaving')) >= 2, 'the first worker at work');
    first.child.kill('SIGINT');
    const left = await first.result;
    expect(left.code, left.stderr).toBe(0);
    expect(left.stderr).toMatch(/handed over batch-/);
    const [row] = await sql<{ status: string; owner: string | null }>(
      url,
      'SELECT status, owner FROM agora_runs',
    );
    expect(row).toEqual({ status: 'running', owner: null });
    await simulator.close();
    await mock({ speed: 0.3, port: simulator.port });
    const second = await runAgora(
      ['worker', ...common, '--out', tempDir(), '--name', 'w-staying', '--exit-when-idle'],
      {
        timeoutMs: 600_000,
      },
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/took over batch-\S+ at event \d+/);
    expect((await sql<{ status: string }>(url, 'SELECT status FROM agora_runs'))[0]?.status).toBe(
      'completed',
    );
    const writers = await sql<{ worker: string }>(
      url,
      'SELECT DISTINCT worker FROM agora_events ORDER BY worker',
    );
    expect(writers.map((writer) => writer.worker)).toEqual(['w-leaving', 'w-staying']);
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}
