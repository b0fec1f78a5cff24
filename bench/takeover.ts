/**
 * How long a dead worker's run waits for another worker, with the default lease (15 s) or the
 * one given, and the sweep: a worker process (the CLI, as users start it) is SIGKILLed in the
 * middle of a debate while a second, idle worker waits; the time is measured from the kill to the
 * second worker's claim of the run (its lease epoch moving). A throwaway Postgres cluster, as the
 * tests start one.
 *
 * The bound it checks: the lease left at the kill (up to the whole lease; it is renewed every third
 * of it) plus the sweep (a quarter of the lease, 1 to 10 s) plus the poll (1 s).
 *
 * Usage: npm run bench:takeover [-- TRIALS [LEASE_SECONDS]]   (default 3 trials, the default lease)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Table from 'cli-table3';
import pg from 'pg';
import { stringify } from 'yaml';
import { startMockOllama } from '../src/mock-ollama/index.js';
import { DEFAULT_LEASE_SECONDS } from '../src/session/shared-runs.js';
import { sweepSecondsFor, takeoverBound } from '../src/session/worker-session.js';
import { agoraCommandLine } from '../tests/helpers/cli.js';
import { SMALL_SCENARIOS } from '../tests/helpers/format-scenarios.js';
import { startPostgres } from '../tests/helpers/postgres.js';

const TRIALS = Number(process.argv[2] ?? 3);
const LEASE = Number(process.argv[3] ?? DEFAULT_LEASE_SECONDS);

const server = await startPostgres();
const scratch = mkdtempSync(path.join(tmpdir(), 'agora-bench-takeover-'));
const children: ChildProcess[] = [];
const rows: Array<Record<string, number | string>> = [];

/** Runs the CLI to its end; throws on a non-zero exit. */
function agora(args: string[]): Promise<void> {
  const [command = process.execPath, ...rest] = agoraCommandLine(args);
  return new Promise((resolve, reject) => {
    const child = spawn(command, rest, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`agora ${args[0]}: ${stderr}`))));
  });
}

function worker(url: string, host: string, name: string): ChildProcess {
  const [command = process.execPath, ...rest] = agoraCommandLine([
    'worker',
    '--database',
    url,
    '--host',
    host,
    '--name',
    name,
    '--out',
    path.join(scratch, name),
    '--lease',
    String(LEASE),
  ]);
  const child = spawn(command, rest, { stdio: 'ignore' });
  children.push(child);
  return child;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query('CREATE DATABASE bench_takeover');
  await admin.end();
  const url = server.url.replace(/\/postgres$/, '/bench_takeover');
  await agora(['migrate', '--database', url]);
  // A long debate at real-time speed on the gpu profile, so the kill lands in the middle of it.
  const file = path.join(scratch, 'duel.yaml');
  writeFileSync(file, stringify((SMALL_SCENARIOS.duel as (extra: object) => object)({ max_rounds: 40 })));
  const [first, second] = await Promise.all([
    startMockOllama({ models: ['llama3', 'mistral'], profile: 'gpu', speed: 1 }),
    startMockOllama({ models: ['llama3', 'mistral'], profile: 'gpu', speed: 1 }),
  ]);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (let trial = 1; trial <= TRIALS; trial += 1) {
    await agora(['batch', '--database', url, file, '--seeds', String(trial)]);
    const doomed = worker(url, first.url, `doomed-${trial}`);
    // Wait until it drives the run and has committed a few steps; then a moment more, so the kill
    // falls at a different point of the lease's renewal cycle in each trial (a third of the lease).
    let run: { run_id: string; lease_epoch: number } | undefined;
    while (!run) {
      const { rows: owned } = await client.query<{ run_id: string; lease_epoch: number }>(
        "SELECT run_id, lease_epoch FROM agora_runs WHERE owner = $1 AND status = 'running' AND next_seq >= 3",
        [`doomed-${trial}`],
      );
      run = owned[0];
      await sleep(100);
    }
    const heir = worker(url, second.url, `heir-${trial}`);
    await sleep(2000 + ((trial * LEASE * 1000) / 3 / TRIALS + trial * 1000));
    const { rows: lease } = await client.query<{ left: number }>(
      'SELECT extract(epoch FROM lease_expires_at - now()) AS left FROM agora_runs WHERE run_id = $1',
      [run.run_id],
    );
    doomed.kill('SIGKILL');
    const killedAt = performance.now();
    for (;;) {
      const { rows: now } = await client.query<{ lease_epoch: number; owner: string | null }>(
        'SELECT lease_epoch, owner FROM agora_runs WHERE run_id = $1',
        [run.run_id],
      );
      if ((now[0]?.lease_epoch ?? 0) > run.lease_epoch) break;
      await sleep(100);
    }
    const seconds = (performance.now() - killedAt) / 1000;
    rows.push({
      trial,
      leaseLeftAtKill: Math.round(Number(lease[0]?.left ?? 0) * 10) / 10,
      takeoverSeconds: Math.round(seconds * 10) / 10,
    });
    console.log(`trial ${trial}: taken over ${seconds.toFixed(1)} s after the kill`);
    heir.kill('SIGKILL');
    await client.query("UPDATE agora_runs SET status = 'stopped', owner = NULL WHERE run_id = $1", [
      run.run_id,
    ]);
  }
  await client.end();
  await Promise.all([first.close(), second.close()]);
} finally {
  for (const child of children) child.kill('SIGKILL');
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
const table = new Table({
  head: ['Trial', 'Lease left at the kill (s)', 'Kill to takeover (s)'],
  style: { head: [], border: [] },
});
for (const row of rows) table.push(Object.values(row));
console.log(table.toString());
const worst = Math.max(...rows.map((row) => Number(row.takeoverSeconds)));
console.log(
  `slowest takeover: ${worst.toFixed(1)} s (bound: ${LEASE} s lease + ${sweepSecondsFor(LEASE)} s sweep + 1 s poll = ${takeoverBound(LEASE, 1)} s)`,
);
writeFileSync(
  new URL('./takeover-results.json', import.meta.url),
  `${JSON.stringify({ leaseSeconds: LEASE, trials: rows }, null, 2)}\n`,
);
