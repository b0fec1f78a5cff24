/**
 * Runs a batch: K debates side by side, their model calls sharing one limiter per Ollama host;
 * finished debates are skipped and interrupted ones resumed when the same batch runs again; a
 * failing debate is recorded and the others go on.
 */

import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Scenario } from '../config/scenario.js';
import { systemClock } from '../core/clock.js';
import { mapConcurrent } from '../core/concurrency.js';
import type { AnyFormat } from '../formats/format-definition.js';
import { formatNamed } from '../formats/index.js';
import type { LimitedProvider } from '../llm/limited-provider.js';
import type { ModelProvider } from '../llm/provider.js';
import { driveDebate, loadRun, namedRunDir, runPaths } from '../manager/debate-manager.js';
import {
  BATCHES_FOLDER,
  type BatchRecord,
  batchesOfRuns,
  indexBatch,
  indexRuns,
} from '../manager/indexing.js';
import { closeRunLogger, createRunLogger } from '../manager/logger.js';
import { inspectRunFolder } from '../store/run-folder.js';
import { acquireRunLock } from '../store/run-lock.js';
import { writeFileAtomic } from '../store/write-files.js';
import type { BatchItem, BatchPlan } from './batch-plan.js';
import type { ProgressCounts } from './batch-progress.js';

export interface BatchResult {
  runId: string;
  scenarioFile: string;
  seed: number;
  lineup: string;
  outcome: 'completed' | 'degraded' | 'stopped' | 'failed' | 'skipped';
  stopReason: string | null;
  error: string | null;
  realMs: number;
}

export interface RunBatchOptions {
  plan: BatchPlan;
  outDir: string;
  provider: LimitedProvider;
  /**
   * The provider a debate of `scenario` talks to: the hosts above, plus the scenario's own model
   * servers (`providers:`). Without it every call goes to the hosts.
   */
  providerFor?: (scenario: Scenario) => ModelProvider;
  concurrency: number;
  /** Prepares a new run's scenario (e.g. picks a formal debate's models from the server). */
  prepare: (item: BatchItem) => Promise<BatchItem['scenario']>;
  onEvent: (message: string) => void;
  counts: ProgressCounts;
  stopRequested: () => boolean;
  signal: AbortSignal;
}

interface RunOneOptions extends RunBatchOptions {
  /** Records a finished run in the run index (a failure there is a warning, never the run's). */
  index: (runDir: string) => void;
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

async function runOne(item: BatchItem, options: RunOneOptions): Promise<BatchResult> {
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
  const folder = inspectRunFolder(runDir);
  // A damaged folder (its log lost) is reported, never run over; a run that never started begins again.
  if (folder.kind === 'damaged' || folder.kind === 'other') {
    return {
      ...base,
      outcome: 'failed',
      stopReason: 'error',
      error: `${runDir} ${folder.kind === 'damaged' ? `is damaged: ${folder.reason}` : 'holds files that are not a run; move them away'}`,
      realMs: 0,
    };
  }
  const existing = folder.kind === 'started';
  if (existing) {
    const peek = loadRun(runDir, formatNamed);
    const progress = peek.format.progress(peek.state);
    if (progress.status === 'completed' || progress.status === 'degraded') {
      // Indexed again in case the batch was killed between the run's end and its indexing.
      options.index(runDir);
      return { ...base, outcome: 'skipped', stopReason: progress.stopReason, error: null, realMs: 0 };
    }
  }
  const paths = existing ? runPaths(runDir) : namedRunDir(options.outDir, item.runId);
  const release = acquireRunLock(runDir);
  const logger = createRunLogger(paths.log, { verbose: false });
  try {
    const step = (text: string) => options.counts.running.set(item.runId, text);
    step('starting');
    let format: AnyFormat;
    let outcome: Awaited<ReturnType<typeof driveDebate>>;
    const common = {
      paths,
      logger,
      signal: options.signal,
      lockHeld: true,
      stopRequested: options.stopRequested,
      onNotice: (notice: Parameters<NonNullable<Parameters<typeof driveDebate>[0]['onNotice']>>[0]) => {
        if (notice.type === 'turn-start') step(`${notice.heading}: ${notice.agent} speaking`);
        else if (notice.type === 'judging-start') step(`round ${notice.round}: judging`);
        else if (notice.type === 'parallel-start') step(`${notice.heading}: ${notice.who.join(', ')}`);
        else if (notice.type === 'summary-start') step('summarising');
      },
    };
    if (existing) {
      const loaded = loadRun(runDir, formatNamed, { repair: true });
      format = loaded.format;
      outcome = await driveDebate({
        ...common,
        provider: options.providerFor?.(loaded.scenario) ?? options.provider,
        format,
        existing: loaded.events,
      });
    } else {
      const scenario = await options.prepare(item);
      const found = formatNamed(scenario.format);
      if (!found) throw new Error(`unknown format ${scenario.format}`);
      format = found;
      outcome = await driveDebate({
        ...common,
        provider: options.providerFor?.(scenario) ?? options.provider,
        format,
        start: { runId: item.runId, scenario },
      });
    }
    options.index(runDir);
    const { status, stopReason, error } = outcome.transcript;
    return {
      ...base,
      outcome: status === 'completed' || status === 'degraded' || status === 'stopped' ? status : 'failed',
      stopReason,
      error: error ?? (status === 'failed' ? stopReason : null),
      realMs: Math.round(systemClock.monotonicMs() - started),
    };
  } catch (error) {
    logger.error({ err: error }, 'debate failed in batch');
    return {
      ...base,
      outcome: 'failed',
      stopReason: 'error',
      error: error instanceof Error ? error.message : String(error),
      realMs: Math.round(systemClock.monotonicMs() - started),
    };
  } finally {
    options.counts.running.delete(item.runId);
    closeRunLogger(logger);
    release();
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
  const index = (runDir: string) => {
    try {
      indexRuns(outDir, [runDir], formatNamed, batchOf);
    } catch (error) {
      options.onEvent(
        `warning: the run index was not updated (${(error as Error).message}); \`agora reindex\` rebuilds it`,
      );
    }
  };
  const results = await mapConcurrent(plan.items, options.concurrency, async (item) => {
    if (options.stopRequested()) {
      return {
        runId: item.runId,
        scenarioFile: item.scenarioFile,
        seed: item.seed,
        lineup: '',
        outcome: 'stopped' as const,
        stopReason: 'manual-stop',
        error: null,
        realMs: 0,
      };
    }
    const result = await runOne(item, { ...options, index });
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
