/**
 * `agora batch <scenario files or folders...> [--seeds 1,2,3 | --repeat N] [--concurrency K]
 * [--parallel N] [--models x=llama3,y=mistral ...] [--host URL ...] [--out DIR]`: every combination,
 * resumable by running the same command again.
 */
import path from 'node:path';
import { type BatchPlan, buildPlan, expandScenarioPaths, plannedScenarios } from '../../batch/batch-plan.js';
import { createProgressReporter, type ProgressCounts } from '../../batch/batch-progress.js';
import { summariseBatch } from '../../batch/batch-summary.js';
import { queueBatch } from '../../batch/enqueue-batch.js';
import { runBatch } from '../../batch/run-batch.js';
import { parseLineup } from '../../config/lineup.js';
import { ExitCode, UsageError } from '../../core/errors.js';
import { plural } from '../../core/plural.js';
import { stopReasonText } from '../../core/stop-reason-text.js';
import { callShare } from '../../llm/call-share.js';
import { normalizeOllamaHost } from '../../llm/ollama-host.js';
import { openHostPool } from '../../session/host-pool.js';
import { databaseUrl, redactedUrl } from '../../store/postgres/database-url.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { JSON_OUTPUT, OUT, TIMEOUT } from '../common-options.js';
import { integerFlag, timeoutFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { ollamaHostFor, withoutApiSuffix } from '../ollama-address.js';
import { stopAfterStepsInFlight } from '../stop-signals.js';
import { renderTable } from '../table-output.js';
import { terminalLayout } from '../terminal-layout.js';
import { onSimulator, startDemoServer } from './demo.js';

/** A stopped batch picks up where it left off: finished debates are skipped, stopped ones resumed. */
const RESUME_HINT = 'Run the same command again to resume the batch.';

const BATCH_OPTIONS = {
  seeds: { value: '1,2,3', help: 'run each scenario with these seeds' },
  repeat: { value: 'N', help: 'run each scenario N times' },
  concurrency: { value: 'K', help: 'debates at a time (default 2)' },
  parallel: { value: 'N', help: 'model calls at once per host (default 1)' },
  models: { value: 'x=A,y=B', help: 'a lineup of models for roles (repeatable)', multiple: true },
  host: {
    value: 'URL',
    help: 'an Ollama address (repeatable: calls are spread over the hosts)',
    multiple: true,
  },
  timeout: TIMEOUT,
  demo: { help: 'every debate on the built-in simulator (simulated text, no model needed), as `demo`' },
  out: OUT,
  database: {
    value: 'URL',
    help: 'queue the debates in the shared Postgres store for `agora worker`s to run',
  },
  json: JSON_OUTPUT,
} as const satisfies OptionSpecs;

export const batchCommand = defineCommand({
  name: 'batch',
  usage: '<scenario files or folders...> [options]',
  listing: {
    term: 'batch <files or dirs>',
    text: [
      'many debates: --seeds 1,2 | --repeat N, --concurrency K, --parallel N,',
      '--models x=llama3,y=mistral (repeatable), --host (repeatable), --out DIR',
    ],
  },
  description:
    'Many debates; Ctrl-C stops after the steps in flight, and the same command resumes the batch.',
  options: BATCH_OPTIONS,
  run: runBatchCommand,
});

async function runBatchCommand(
  { values, positionals }: CommandInput<typeof BATCH_OPTIONS>,
  io: CliIo,
): Promise<number> {
  if (positionals.length === 0)
    throw new UsageError('name scenario files or folders, e.g. `agora batch scenarios/`');
  if (values.seeds && values.repeat) throw new UsageError('give --seeds or --repeat, not both');
  const seeds = values.seeds
    ? values.seeds.split(',').map((seed) => integerFlag('seeds', seed.trim()) as number)
    : null;
  // Bad numbers are refused before anything starts.
  integerFlag('concurrency', values.concurrency, 1);
  integerFlag('parallel', values.parallel, 1);
  timeoutFlag(values.timeout);
  const plan: BatchPlan = await buildPlan({
    files: expandScenarioPaths(positionals, io.cwd),
    seeds,
    repeat: integerFlag('repeat', values.repeat, 1) ?? null,
    lineups: (values.models ?? []).map(parseLineup),
  });
  for (const notice of plan.notices) io.stderr.write(`${notice}\n`);
  const url = databaseUrl(values.database, io.env);
  if (values.demo && (url !== undefined || values.host?.length))
    throw new UsageError('--demo runs the batch on the built-in simulator: leave out --host and --database');
  if (url !== undefined) return enqueueCommand(plan, url, io, values.json === true);
  const simulator = values.demo
    ? await startDemoServer(
        plan.items.map((item) => item.scenario),
        'instant',
        0,
      )
    : undefined;
  try {
    return await runOnHosts(
      simulator ? onSimulatorPlan(plan, simulator.url, io) : { plan, io },
      simulator?.url,
      values,
    );
  } finally {
    await simulator?.close();
  }
}

/** Every debate of the plan on the simulator: each scenario's own servers point at it too. */
function onSimulatorPlan(plan: BatchPlan, url: string, io: CliIo): { plan: BatchPlan; io: CliIo } {
  let env = io.env;
  const items = plan.items.map((item) => {
    const moved = onSimulator(item.scenario, url, { ...io, env });
    env = moved.io.env;
    return { ...item, scenario: moved.scenario };
  });
  io.stderr.write(
    `Demo: every debate runs on Agora's built-in Ollama simulator at ${url}. The statements are generated text, not a language model's.\n`,
  );
  return { plan: { ...plan, items }, io: { ...io, env } };
}

async function runOnHosts(
  target: { plan: BatchPlan; io: CliIo },
  simulatorUrl: string | undefined,
  values: CommandInput<typeof BATCH_OPTIONS>['values'],
): Promise<number> {
  const { plan, io } = target;
  const outDir = path.resolve(io.cwd, values.out ?? 'transcripts');
  const concurrency = integerFlag('concurrency', values.concurrency, 1) ?? 2;
  const perHost = integerFlag('parallel', values.parallel, 1) ?? 1;
  const requestTimeoutMs = timeoutFlag(values.timeout);
  const hosts = simulatorUrl
    ? [simulatorUrl]
    : values.host?.length
      ? values.host.map((host) => withoutApiSuffix(normalizeOllamaHost(host), io))
      : [ollamaHostFor({ scenario: plan.items[0]?.scenario.ollama.host, env: io.env.OLLAMA_HOST }, io)];
  const pool = await openHostPool({
    hosts,
    perHost,
    env: io.env,
    ...(requestTimeoutMs ? { requestTimeoutMs } : {}),
    scenarios: plannedScenarios(plan),
  });
  const provider = pool.provider;

  const counts: ProgressCounts = {
    total: plan.items.length,
    done: 0,
    skipped: 0,
    failed: 0,
    running: new Map(),
    durations: [],
  };
  const reporter = createProgressReporter(io.stderr, concurrency);
  io.stderr.write(
    `Batch ${plan.batchId}: ${plural(plan.items.length, 'debate')}, ${concurrency} at a time, at most ${plural(perHost, 'model call')} at once per host (${hosts.join(', ')})${shareNote(provider.capacity, Math.min(concurrency, plan.items.length))}\n`,
  );
  const stops = stopAfterStepsInFlight(reporter, RESUME_HINT);
  reporter.start(counts);
  const started = Date.now();
  let results: Awaited<ReturnType<typeof runBatch>>;
  try {
    results = await runBatch({
      plan,
      outDir,
      pool: provider,
      env: io.env,
      ...(requestTimeoutMs ? { requestTimeoutMs } : {}),
      concurrency,
      onEvent: (message) => reporter.event(message),
      counts,
      stopRequested: stops.stopRequested,
      signal: stops.signal,
      ...(simulatorUrl ? { simulated: true } : {}),
    });
  } finally {
    reporter.stop();
    stops.close();
  }
  const { summary, file } = summariseBatch(plan, outDir, results, {
    realMs: Date.now() - started,
    peakConcurrentCalls: provider.peaks(),
  });
  if (values.json) io.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else {
    io.stdout.write(
      renderTable(
        ['Run', 'Seed', 'Models', 'Status', 'Outcome', 'Stop reason', 'Real time'],
        results.map((result) => [
          result.runId,
          result.seed,
          result.lineup,
          result.outcome,
          // Who won and why, as `agora runs` and `show` say it.
          result.result ?? '',
          result.error ?? stopReasonText(result.stopReason),
          `${(result.realMs / 1000).toFixed(1)} s`,
        ]),
        'table',
        terminalLayout(io.stdout, io.env),
        // A run id is never broken: users copy it from here.
        { keepWhole: ['Run'] },
      ),
    );
    io.stdout.write(
      `Batch ${plan.batchId}: ${summary.completed} completed, ${summary.degraded} degraded, ${summary.skipped} already finished, ${summary.failed} failed, ${summary.stopped} stopped. Summary: ${file}\n${summary.stopped > 0 ? `${RESUME_HINT}\n` : ''}`,
    );
  }
  if (summary.stopped > 0) return ExitCode.interrupted;
  if (summary.failed > 0) return ExitCode.runFailed;
  return summary.degraded > 0 ? ExitCode.degraded : ExitCode.ok;
}

/** `--database`: the batch goes to the shared queue, for the workers; nothing runs here. */
async function enqueueCommand(plan: BatchPlan, url: string, io: CliIo, json: boolean): Promise<number> {
  const { added, present } = await queueBatch(plan, url);
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ batchId: plan.batchId, queued: added, alreadyThere: present }, null, 2)}\n`,
    );
  } else {
    io.stdout.write(
      `Batch ${plan.batchId}: queued ${plural(added.length, 'debate')} in ${redactedUrl(url)}${present.length ? ` (${plural(present.length, 'debate')} already there, left as they are)` : ''}.\nWorkers take them: \`agora worker --database URL --host OLLAMA\` on each GPU host. Follow them with \`agora runs --database URL --batch ${plan.batchId}\` or \`agora serve --database URL\`.\n`,
    );
  }
  return ExitCode.ok;
}

/** ", each debate at most N at once" when a debate's share of the calls holds it back (call-share.ts). */
function shareNote(capacity: number, debates: number): string {
  const share = callShare(capacity, debates);
  return share === undefined || share >= capacity
    ? ''
    : `, each debate at most ${plural(share, 'call')} at once`;
}
