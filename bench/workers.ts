/**
 * Workers on many hosts: the same batch driven by 1 worker and by 4, each against its own simulated
 * Ollama (gpu profile) with the same number of slots, through a throwaway Postgres cluster (as the
 * tests start one: Debian's `postgresql` must be installed). Reports debates per simulated hour
 * (wall time divided by the simulator's speed), and what the database costs per committed step:
 * milliseconds per commit and statements per commit.
 *
 * Usage: npm run bench:workers [-- DEBATES [SPEED]]   (default 96 debates at speed 0.3)
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Table from 'cli-table3';
import { stringify } from 'yaml';
import { buildPlan } from '../src/batch/batch-plan.js';
import { enqueueBatch } from '../src/batch/enqueue-batch.js';
import { LimitedProvider } from '../src/llm/limited-provider.js';
import { OllamaProvider } from '../src/llm/ollama-provider.js';
import { startWorker } from '../src/manager/worker-loop.js';
import { startMockOllama } from '../src/mock-ollama/index.js';
import { RunDatabase } from '../src/store/postgres/run-database.js';
import { WorkQueue } from '../src/store/postgres/work-queue.js';
import { SMALL_SCENARIOS } from '../tests/helpers/format-scenarios.js';
import { startPostgres } from '../tests/helpers/postgres.js';

const DEBATES = Number(process.argv[2] ?? 96);
const SLOTS = 2;
/**
 * Real seconds per simulated second. The engine's and the database's own time is counted at 1/SPEED
 * times its real length, so a larger value (slower, closer to real time) weighs that overhead more
 * fairly; 0.3 takes about three minutes on a two-core machine.
 */
const SPEED = Number(process.argv[3] ?? 0.3);

const server = await startPostgres();
const scratch = mkdtempSync(path.join(tmpdir(), 'agora-bench-workers-'));
const rows: Array<Record<string, number>> = [];
try {
  const file = path.join(scratch, 'duel.yaml');
  writeFileSync(file, stringify((SMALL_SCENARIOS.duel as () => Record<string, unknown>)()));
  for (const [at, hosts] of [1, 4].entries()) {
    // A fresh database for each line-up.
    const admin = await RunDatabase.open(server.url, { forMigration: true, poolSize: 1 });
    await admin.query(`CREATE DATABASE bench_${at}`);
    await admin.close();
    const url = server.url.replace(/\/postgres$/, `/bench_${at}`);
    const database = await RunDatabase.open(url, { forMigration: true, poolSize: 4 * hosts + 4 });
    await database.migrate();
    const installer = await WorkQueue.start(url, { install: true });
    await installer.stop();
    const plan = await buildPlan({ files: [file], seeds: null, repeat: DEBATES, lineups: [] });
    const queue = await WorkQueue.start(url);
    await enqueueBatch(plan, database, queue);
    // Every commit is timed and its statements counted, through the store's one query funnel.
    // Commits run side by side, so each counts its own statements through its async context.
    let commits = 0;
    let commitMs = 0;
    let statements = 0;
    const inCommit = new AsyncLocalStorage<true>();
    const query = database.query.bind(database);
    database.query = ((...args: Parameters<typeof query>) => {
      if (inCommit.getStore()) statements += 1;
      return query(...args);
    }) as typeof database.query;
    const commit = database.commit.bind(database);
    database.commit = (...args: Parameters<typeof commit>) =>
      inCommit.run(true, async () => {
        const started = performance.now();
        try {
          return await commit(...args);
        } finally {
          commits += 1;
          commitMs += performance.now() - started;
        }
      });
    const simulators = await Promise.all(
      Array.from({ length: hosts }, () =>
        startMockOllama({ models: ['llama3', 'mistral'], profile: 'gpu', speed: SPEED }),
      ),
    );
    const started = performance.now();
    const workers = simulators.map((simulator, index) => {
      const provider = new LimitedProvider([new OllamaProvider({ host: simulator.url })], SLOTS);
      return startWorker({
        database,
        queue,
        workerId: `bench-${hosts}-${index}`,
        parallel: SLOTS,
        leaseSeconds: 30,
        pollSeconds: 0.05,
        sweepSeconds: 5,
        workDir: path.join(scratch, `work-${at}-${index}`),
        provider,
        providerFor: () => provider,
        signal: new AbortController().signal,
        exitWhenIdle: true,
        report: () => undefined,
      });
    });
    const summaries = await Promise.all(workers.map((worker) => worker.done));
    const wallSeconds = (performance.now() - started) / 1000;
    const simulatedHours = wallSeconds / SPEED / 3600;
    const completed = summaries.reduce((sum, summary) => sum + (summary.outcomes.completed ?? 0), 0);
    rows.push({
      hosts,
      slotsPerHost: SLOTS,
      debates: completed,
      wallSeconds: Math.round(wallSeconds * 10) / 10,
      debatesPerSimulatedHour: Math.round((completed / simulatedHours) * 10) / 10,
      commits,
      msPerCommit: Math.round((commitMs / commits) * 100) / 100,
      statementsPerCommit: Math.round((statements / commits) * 10) / 10,
    });
    await Promise.all(simulators.map((simulator) => simulator.close()));
    await queue.stop();
    await database.close();
  }
} finally {
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
const table = new Table({
  head: [
    'Hosts',
    'Slots/host',
    'Debates',
    'Wall s',
    'Debates per sim. hour',
    'Commits',
    'ms/commit',
    'Statements/commit',
  ],
  style: { head: [], border: [] },
});
for (const row of rows) table.push(Object.values(row));
console.log(table.toString());
const rate = (row: Record<string, number> | undefined) => row?.debatesPerSimulatedHour ?? Number.NaN;
console.log(`4 hosts / 1 host: ${(rate(rows[1]) / rate(rows[0])).toFixed(2)}x`);
writeFileSync(new URL('./workers-results.json', import.meta.url), `${JSON.stringify(rows, null, 2)}\n`);
