/**
 * Runs a batch: K debates side by side, their model calls sharing one limiter per Ollama host;
 * finished debates are skipped and interrupted ones resumed when the same batch runs again; a
 * failing debate is recorded and the others go on.
 */

import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { systemClock } from '../core/clock.js';
import { mapConcurrent } from '../core/concurrency.js';
import type { AnyFormat } from '../formats/format-definition.js';
import { outcomeLine } from '../formats/outcome-line.js';
import { callShare, withCallShare } from '../llm/call-share.js';
import type { LimitedProvider } from '../llm/limited-provider.js';
import type { ModelProvider } from '../llm/provider.js';
import { BATCHES_FOLDER, type BatchRecord, batchesOfRuns, indexBatch } from '../manager/indexing.js';
import { indexRun, runSession } from '../session/debate-session.js';
import { claimNamedRunFolder } from '../session/run-folder-claim.js';
import { writeFileAtomic } from '../store/write-files.js';
import type { BatchItem, BatchPlan } from './batch-plan.js';
import type { ProgressCounts } from './batch-progress.js';

export interface BatchResult {
  runId: string;
  scenarioFile: string;
  seed: number;
  lineup: string;
  /** How the run ended, as a status. */
  outcome: 'completed' | 'degraded' | 'stopped' | 'failed' | 'skipped';
  /** Who won and why, in the one sentence every listing gives; null where the run has no record. */
  result: string | null;
  stopReason: string | null;
  error: string | null;
  realMs: number;
}

export interface RunBatchOptions {
  plan: BatchPlan;
  outDir: string;
  /** The batch's Ollama hosts, checked for every scenario of the plan, behind their limits. */
  pool: LimitedProvider;
  /** Where the scenarios' own model servers and their keys are found. */
  env: Record<string, string | undefined>;
  requestTimeoutMs?: number;
  /** The debates run on the built-in simulator: each run is recorded as simulated. */
  simulated?: boolean;
  concurrency: number;
  onEvent: (message: string) => void;
  counts: ProgressCounts;
  stopRequested: () => boolean;
  signal: AbortSignal;
}

export function batchFolder(outDir: string, batchId: string): string {
  return path.join(outDir, BATCHES_FOLDER, batchId);
}

export function batchRecord(plan: BatchPlan, createdAt: string): BatchRecord {
  return {
    batchId: plan.batchId,
    createdAt,
    plan: plan.spec,
    runs: plan.items.map((item) => ({
      batch_id: plan.batchId,
      idx: item.idx,
      run_id: item.runId,
      scenario_file: item.scenarioFile,
      seed: item.seed,
      lineup: item.lineup ? JSON.stringify(item.lineup) : '',
    })),
  };
}

/** The run's outcome sentence, as the run index and `agora runs` give it. */
function resultSentence(format: AnyFormat, state: unknown): string | null {
  return outcomeLine(format.name, {
    ...format.transcript(state),
    failedSteps: format.failures(state).length,
  });
}

async function runOne(
  item: BatchItem,
  options: RunBatchOptions,
  batchOf: ReadonlyMap<string, string>,
  pool: ModelProvider,
) {
  const started = systemClock.monotonicMs();
  const base = {
    runId: item.runId,
    scenarioFile: item.scenarioFile,
    seed: item.seed,
    lineup: item.lineup
      ? Object.entries(item.lineup)
          .map(([key, model]) => `${key}=${model}`)
          .join(',')
      : '',
  };
  const runDir = path.join(options.outDir, item.runId);
  let claim: ReturnType<typeof claimNamedRunFolder>;
  try {
    claim = claimNamedRunFolder(runDir);
  } catch (error) {
    return {
      ...base,
      outcome: 'failed',
      result: null,
      stopReason: 'error',
      error: (error as Error).message,
      realMs: 0,
    } satisfies BatchResult;
  }
  if (claim.kind === 'ended') {
    // Indexed again in case the batch was killed between the run's end and its indexing.
    indexRun(runDir, { batchOf, warning: (text) => options.onEvent(`warning: ${text}`) });
    return {
      ...base,
      outcome: 'skipped',
      result: resultSentence(claim.loaded.format, claim.loaded.state),
      stopReason: claim.progress.stopReason,
      error: null,
      realMs: 0,
    } satisfies BatchResult;
  }
  const step = (text: string) => options.counts.running.set(item.runId, text);
  try {
    step('starting');
    const outcome = await runSession(
      {
        scenario: item.scenario,
        ...(claim.kind === 'resume' ? { resume: claim.resume } : {}),
        servers: {
          host: options.pool.host,
          env: options.env,
          ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
          pool,
        },
        store: { out: options.outDir, runId: item.runId, lockHeld: true, batchOf, followLive: false },
        signal: options.signal,
        stopRequested: options.stopRequested,
        ...(options.simulated ? { simulated: true } : {}),
      },
      {
        warning: (text) => options.onEvent(`warning: ${path.basename(item.scenarioFile)}: ${text}`),
        notice: (notice) => {
          if (notice.type === 'turn-start') step(`${notice.heading}: ${notice.agent} speaking`);
          else if (notice.type === 'judging-start') step(`round ${notice.round}: judging`);
          else if (notice.type === 'parallel-start') step(`${notice.heading}: ${notice.who.join(', ')}`);
          else if (notice.type === 'summary-start') step('summarising');
        },
      },
    );
    const { status, stopReason, error } = outcome.transcript;
    return {
      ...base,
      outcome: status === 'completed' || status === 'degraded' || status === 'stopped' ? status : 'failed',
      result: resultSentence(outcome.format, outcome.state),
      stopReason,
      error: error ?? (status === 'failed' ? stopReason : null),
      realMs: Math.round(systemClock.monotonicMs() - started),
    } satisfies BatchResult;
  } catch (error) {
    return {
      ...base,
      outcome: 'failed',
      result: null,
      stopReason: 'error',
      error: error instanceof Error ? error.message : String(error),
      realMs: Math.round(systemClock.monotonicMs() - started),
    } satisfies BatchResult;
  } finally {
    options.counts.running.delete(item.runId);
    claim.release();
  }
}

export async function runBatch(options: RunBatchOptions): Promise<BatchResult[]> {
  const { plan, outDir, counts } = options;
  const folder = batchFolder(outDir, plan.batchId);
  mkdirSync(folder, { recursive: true });
  const planFile = path.join(folder, 'plan.json');
  if (!existsSync(planFile)) {
    const record = batchRecord(plan, systemClock.now().toISOString());
    writeFileAtomic(planFile, `${JSON.stringify(record, null, 2)}\n`);
    indexBatch(outDir, record);
  }
  const batchOf = batchesOfRuns(outDir);
  // Each debate sends at most its share of the calls the hosts take at once (call-share.ts).
  const share = callShare(options.pool.capacity, Math.min(options.concurrency, plan.items.length));
  const results = await mapConcurrent(plan.items, options.concurrency, async (item) => {
    if (options.stopRequested()) {
      return {
        runId: item.runId,
        scenarioFile: item.scenarioFile,
        seed: item.seed,
        lineup: '',
        outcome: 'stopped' as const,
        result: null,
        stopReason: 'manual-stop',
        error: null,
        realMs: 0,
      };
    }
    // The debate takes part in the hosts' gates, which hold a model's turn open for it (decision 028).
    const party = options.pool.party();
    const pool =
      share === undefined || share >= options.pool.capacity
        ? party.provider
        : withCallShare(party.provider, share);
    const result: BatchResult = await runOne(item, options, batchOf, pool).finally(() => party.close());
    if (result.outcome === 'skipped') counts.skipped += 1;
    else if (result.outcome === 'completed' || result.outcome === 'degraded') {
      counts.done += 1;
      counts.durations.push(result.realMs);
    } else if (result.outcome === 'failed') counts.failed += 1;
    options.onEvent(
      `${result.outcome === 'skipped' ? 'skipped (already finished)' : result.outcome}: ${result.runId}${result.error ? ` — ${result.error}` : ''}`,
    );
    return result;
  });
  return results;
}
