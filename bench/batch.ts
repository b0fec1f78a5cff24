/**
 * Batch throughput and memory: N knockout debates (default 200) against the mock Ollama's instant
 * profile, running in a separate process, so the figures are the engine's own.
 * `npm run bench:batch [-- N concurrency]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildPlan } from '../src/batch/batch-plan.js';
import type { ProgressCounts } from '../src/batch/batch-progress.js';
import { runBatch } from '../src/batch/run-batch.js';
import { LimitedProvider } from '../src/llm/limited-provider.js';
import { OllamaProvider } from '../src/llm/ollama-provider.js';
import { startMockProcess } from './mock-process.js';

const debates = Number(process.argv[2] ?? 200);
const concurrency = Number(process.argv[3] ?? 4);

const { url, process: mock } = await startMockProcess();

const out = mkdtempSync(path.join(tmpdir(), 'agora-bench-batch-'));
const plan = await buildPlan({
  files: [path.resolve('scenarios/abortion.yaml')],
  seeds: null,
  repeat: debates,
  lineups: [],
});
const counts: ProgressCounts = {
  total: debates,
  done: 0,
  skipped: 0,
  failed: 0,
  running: new Map(),
  durations: [],
};
const samples: Array<{ done: number; rssMb: number; heapMb: number }> = [];
const sample = () => {
  const memory = process.memoryUsage();
  samples.push({ done: counts.done, rssMb: memory.rss / 2 ** 20, heapMb: memory.heapUsed / 2 ** 20 });
};
const sampler = setInterval(sample, 250);
const started = performance.now();
try {
  await runBatch({
    plan,
    outDir: out,
    provider: new LimitedProvider([new OllamaProvider({ host: url })], concurrency),
    concurrency,
    prepare: async (item) => item.scenario,
    onEvent: () => undefined,
    counts,
    stopRequested: () => false,
    signal: new AbortController().signal,
  });
} finally {
  clearInterval(sampler);
  mock.kill('SIGINT');
}
sample();
const seconds = (performance.now() - started) / 1000;
rmSync(out, { recursive: true, force: true });

const quarter = (fraction: number) => {
  const target = Math.floor(debates * fraction);
  const after = samples.filter((item) => item.done >= target);
  return Math.max(...(after.length ? after : samples).slice(0, 8).map((item) => item.rssMb));
};
const peak = Math.max(...samples.map((item) => item.rssMb));
console.log(
  JSON.stringify(
    {
      debates,
      concurrency,
      completed: counts.done,
      failed: counts.failed,
      seconds: Math.round(seconds * 10) / 10,
      debatesPerSecond: Math.round((counts.done / seconds) * 100) / 100,
      peakRssMb: Math.round(peak),
      rssMbAt: {
        '25%': Math.round(quarter(0.25)),
        '50%': Math.round(quarter(0.5)),
        '75%': Math.round(quarter(0.75)),
        '100%': Math.round(quarter(1)),
      },
      node: process.version,
    },
    null,
    2,
  ),
);
