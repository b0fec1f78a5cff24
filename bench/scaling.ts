/**
 * Batch scaling: debates per simulated hour when the server has 1, 2 or 4 slots per model (the
 * simulator's gpu profile otherwise). Several debates run at once, so slots can be used; the rate is
 * the busier model's simulated busy time spread over its slots (a makespan for perfect packing).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Table from 'cli-table3';
import { buildPlan } from '../src/batch/batch-plan.js';
import type { ProgressCounts } from '../src/batch/batch-progress.js';
import { runBatch } from '../src/batch/run-batch.js';
import { LimitedProvider } from '../src/llm/limited-provider.js';
import { OllamaProvider } from '../src/llm/ollama-provider.js';
import { PROFILES, startMockOllama } from '../src/mock-ollama/index.js';

const DEBATES = Number(process.argv[2] ?? 8);
const rows: Array<Record<string, number | string>> = [];
for (const slots of [1, 2, 4]) {
  const server = await startMockOllama({
    models: ['llama3', 'mistral'],
    profile: { ...PROFILES.gpu, name: `gpu, ${slots} slot(s)`, parallel: slots },
    speed: 0.0005,
  });
  const out = mkdtempSync(path.join(tmpdir(), 'agora-bench-scaling-'));
  try {
    const plan = await buildPlan({
      files: [path.resolve('scenarios/abortion.yaml')],
      seeds: null,
      repeat: DEBATES,
      lineups: [],
    });
    const counts: ProgressCounts = {
      total: DEBATES,
      done: 0,
      skipped: 0,
      failed: 0,
      running: new Map(),
      durations: [],
    };
    // Two models each with `slots` slots: up to 2 × slots calls can usefully run at once.
    await runBatch({
      plan,
      outDir: out,
      pool: new LimitedProvider([new OllamaProvider({ host: server.url })], 2 * slots),
      env: process.env,
      concurrency: 2 * slots,
      onEvent: () => undefined,
      counts,
      stopRequested: () => false,
      signal: new AbortController().signal,
    });
    const stats = server.stats();
    const busiest = Math.max(...Object.values(stats.perModel).map((model) => model.simulatedSeconds / slots));
    rows.push({
      slots,
      debates: counts.done,
      prefilled: stats.prefilledPromptTokens,
      cached: stats.cachedPromptTokens,
      busiestModelHours: Math.round((busiest / 3600) * 1000) / 1000,
      debatesPerSimulatedHour: Math.round((counts.done / (busiest / 3600)) * 10) / 10,
    });
  } finally {
    await server.close();
    rmSync(out, { recursive: true, force: true });
  }
}
const table = new Table({
  head: ['Slots per model', 'Debates', 'Prefilled', 'Cached', 'Debates per simulated hour'],
  style: { head: [], border: [] },
});
for (const row of rows)
  table.push([row.slots, row.debates, row.prefilled, row.cached, row.debatesPerSimulatedHour]);
console.log(table.toString());
writeFileSync(new URL('./scaling-results.json', import.meta.url), `${JSON.stringify(rows, null, 2)}\n`);
