/**
 * `npm run bench:batch-gpu`: how long four debates keep one GPU busy when they run at once
 * (`agora batch --concurrency 4`, by default, with `--parallel` set to the host's slots per model)
 * against one after another on the same host, on the simulator's gpu, gpu-small and cpu profiles,
 * on the gpu with four slots per model (with and without Ollama's multi-user cache), and eight
 * debates on the gpu with eight slots per model. The simulator batches the decodes of one model
 * across its parallel slots and shares the GPU between everything else (src/mock-ollama/gpu-clock.ts);
 * its busy time is in simulated seconds, so the figures do not depend on this machine's speed.
 * Each row also gives the mean number of sequences a decode step served, one after another and at
 * once, and the floor of the at-once figure: the busy time the prompt tokens read afresh and the
 * tokens written at once would take if every decode step served as many sequences as a model has
 * slots (src/mock-ollama/busy-floor.ts), plus the first model load, which nothing can overlap; no
 * order of the calls that reads as much afresh can go below it. Each debate's transcript must come
 * out the same both ways, or the benchmark fails.
 *
 * `npm run bench:batch-gpu [-- debates parallel] [--only TEXT]` (4 debates where a row does not say;
 * `parallel` overrides the slots; `--only` keeps the rows whose label contains TEXT); writes
 * bench/batch-gpu-results.json.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildPlan } from '../src/batch/batch-plan.js';
import type { ProgressCounts } from '../src/batch/batch-progress.js';
import { runBatch } from '../src/batch/run-batch.js';
import { formatNamed } from '../src/formats/index.js';
import { LimitedProvider } from '../src/llm/limited-provider.js';
import { OllamaProvider } from '../src/llm/ollama-provider.js';
import { loadRun } from '../src/manager/debate-manager.js';
import { busyFloorSeconds, type CostProfile, PROFILES, startMockOllama } from '../src/mock-ollama/index.js';

const onlyAt = process.argv.indexOf('--only');
const ONLY = onlyAt === -1 ? undefined : process.argv[onlyAt + 1];
const positional = process.argv
  .slice(2)
  .filter((_, index) => index + 2 !== onlyAt && index + 2 !== onlyAt + 1);
const DEBATES = Number(positional[0] ?? 4);
/**
 * `--parallel`: calls in flight on the host at most, both ways; by default the host's slots per
 * model (OLLAMA_NUM_PARALLEL), as the README's batch section advises.
 */
const PARALLEL = positional[1] === undefined ? undefined : Number(positional[1]);
const SCENARIO = 'scenarios/abortion.yaml';
const SPEECH = { minWords: 350, maxWords: 650 };
/** Real seconds per simulated second: small enough to be quick, large against the engine's own work. */
const SPEED: Record<string, number> = { gpu: 0.01, 'gpu-small': 0.01, cpu: 0.001 };
/**
 * For the rows with four and eight slots per model, where batching is measured: slower, so that the
 * engine's own time between a debate's calls (tens of milliseconds on a busy two-core machine) stays
 * small beside a call's simulated time and does not split the batches (at 0.01 it is seconds).
 */
const BATCHED_SPEED = 0.1;

/**
 * The hosts measured: the built-in gpu, gpu-small and cpu profiles, and the gpu profile's GPU
 * served as a batch on one GPU would best be: OLLAMA_NUM_PARALLEL=4, one slot per debate at once,
 * with Ollama's default prompt cache and with OLLAMA_MULTIUSER_CACHE=1; and OLLAMA_NUM_PARALLEL=8
 * with eight debates (`debates`: how many the row runs, both ways; DEBATES where not given).
 */
const HOSTS: ReadonlyArray<{
  label: string;
  profile: CostProfile;
  atOnce?: number;
  debates?: number;
  speed?: number;
}> = [
  {
    label: 'gpu, OLLAMA_NUM_PARALLEL=8, eight debates',
    profile: { ...PROFILES.gpu, parallel: 8 },
    debates: 8,
    speed: BATCHED_SPEED,
  },
  { label: 'gpu', profile: PROFILES.gpu },
  { label: 'gpu, as many debates at once as slots', profile: PROFILES.gpu, atOnce: PROFILES.gpu.parallel },
  { label: 'gpu, OLLAMA_NUM_PARALLEL=4', profile: { ...PROFILES.gpu, parallel: 4 }, speed: BATCHED_SPEED },
  {
    label: 'gpu, OLLAMA_NUM_PARALLEL=4, OLLAMA_MULTIUSER_CACHE=1',
    profile: { ...PROFILES.gpu, parallel: 4, multiUserCache: true },
    speed: BATCHED_SPEED,
  },
  { label: 'gpu-small', profile: PROFILES['gpu-small'] },
  {
    label: 'gpu-small, as many debates at once as slots',
    profile: PROFILES['gpu-small'],
    atOnce: PROFILES['gpu-small'].parallel,
  },
  { label: 'cpu', profile: PROFILES.cpu },
];

interface Measured {
  busySeconds: number;
  /** Mean sequences a decode step served. */
  perStep: number;
  loads: number;
  prefilled: number;
  cached: number;
  completed: number;
  /**
   * The least busy time the same prompt tokens read afresh and tokens written could take: every
   * decode step full, and the first load (nothing runs before it).
   */
  floorSeconds: number;
  /** Each debate's transcript, by its place in the plan. */
  transcripts: string[];
}

/** Fields of a transcript that are real time, not content. */
const CLOCK_FIELDS = new Set(['realMs', 'startedAt', 'updatedAt']);

/** A run's transcript as its format folds it from the log, without its real-time fields. */
function transcriptOf(runDir: string): string {
  const loaded = loadRun(runDir, formatNamed);
  return JSON.stringify(loaded.format.transcript(loaded.state), (key, value) =>
    CLOCK_FIELDS.has(key) ? undefined : value,
  );
}

async function measure(
  profile: CostProfile,
  debates: number,
  concurrency: number,
  parallel: number,
  speed = SPEED[profile.name] ?? 0.01,
): Promise<Measured> {
  const server = await startMockOllama({
    models: ['llama3', 'mistral'],
    profile,
    speed,
    speechLength: SPEECH,
  });
  const out = mkdtempSync(path.join(tmpdir(), 'agora-bench-batch-gpu-'));
  try {
    const plan = await buildPlan({
      files: [path.resolve(SCENARIO)],
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
    await runBatch({
      plan,
      outDir: out,
      pool: new LimitedProvider([new OllamaProvider({ host: server.url })], parallel),
      env: process.env,
      concurrency,
      onEvent: () => undefined,
      counts,
      stopRequested: () => false,
      signal: new AbortController().signal,
      simulated: true,
    });
    const stats = server.stats();
    return {
      busySeconds: stats.gpuBusySeconds,
      perStep: stats.gpuDecodedTokens / Math.max(1, stats.gpuDecodeSteps),
      loads: stats.modelLoads,
      prefilled: stats.prefilledPromptTokens,
      cached: stats.cachedPromptTokens,
      completed: counts.done,
      floorSeconds:
        busyFloorSeconds(profile, {
          prefilled: stats.prefilledPromptTokens,
          decoded: stats.gpuDecodedTokens,
          slots: Math.min(profile.parallel, parallel),
        }) + (stats.modelLoads > 0 ? profile.loadSeconds : 0),
      transcripts: plan.items.map((item) => transcriptOf(path.join(out, item.runId))),
    };
  } finally {
    await server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const rows = [];
const started = Date.now();
for (const { label, profile, debates = DEBATES, atOnce = debates, speed } of HOSTS) {
  if (ONLY !== undefined && !label.includes(ONLY)) continue;
  const parallel = PARALLEL ?? profile.parallel;
  const alone = await measure(profile, debates, 1, parallel, speed);
  const together = await measure(profile, debates, atOnce, parallel, speed);
  if (alone.completed !== debates || together.completed !== debates) {
    throw new Error(`${label}: ${alone.completed} and ${together.completed} of ${debates} debates completed`);
  }
  together.transcripts.forEach((text, index) => {
    if (text !== alone.transcripts[index]) {
      writeFileSync(path.join(tmpdir(), 'batch-gpu-alone.txt'), alone.transcripts[index] ?? '');
      writeFileSync(path.join(tmpdir(), 'batch-gpu-at-once.txt'), text);
      throw new Error(`${label}: debate ${index + 1} has a different transcript when run at once`);
    }
  });
  rows.push({
    profile: `${label} (${profile.parallel} slot(s), ${profile.maxLoadedModels} model(s) resident)`,
    parallel,
    debates,
    atOnce,
    oneAfterAnotherBusySeconds: round1(alone.busySeconds),
    atOnceBusySeconds: round1(together.busySeconds),
    ratio: Math.round((together.busySeconds / alone.busySeconds) * 100) / 100,
    busySecondsPerDebate: round1(together.busySeconds / debates),
    atOnceFloorSeconds: round1(together.floorSeconds),
    floorRatio: Math.round((together.floorSeconds / alone.busySeconds) * 1000) / 1000,
    sequencesPerStep: `${alone.perStep.toFixed(2)} / ${together.perStep.toFixed(2)}`,
    loads: `${alone.loads} / ${together.loads}`,
    prefilled: `${alone.prefilled} / ${together.prefilled}`,
  });
}
const out = (text = '') => process.stdout.write(`${text}\n`);
out(`## Debates of ${SCENARIO}: GPU-busy simulated seconds, one after another vs at once`);
out();
out(
  '| profile | debates | --parallel | one after another | at once | --concurrency | ratio | busy per debate, at once | floor at once (ratio) | sequences per decode step (after / at once) | loads (after / at once) | prefilled tokens (after / at once) |',
);
out('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) {
  out(
    `| ${row.profile} | ${row.debates} | ${row.parallel} | ${row.oneAfterAnotherBusySeconds} s | ${row.atOnceBusySeconds} s | ${row.atOnce} | ${row.ratio.toFixed(2)}x | ${row.busySecondsPerDebate} s | ${row.atOnceFloorSeconds} s (${row.floorRatio.toFixed(3)}x) | ${row.sequencesPerStep} | ${row.loads} | ${row.prefilled} |`,
  );
}
process.stderr.write(`(${((Date.now() - started) / 1000).toFixed(0)} s of real time)\n`);
writeFileSync(
  new URL('./batch-gpu-results.json', import.meta.url),
  `${JSON.stringify({ scenario: SCENARIO, speech: SPEECH, speed: SPEED, batchedSpeed: BATCHED_SPEED, rows }, null, 2)}\n`,
);
