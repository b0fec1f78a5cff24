/** What a batch run here came to: counts by outcome, time, peak calls per host, kept as `batch-summary.json`. */
import path from 'node:path';
import { writeFileAtomic } from '../store/write-files.js';
import type { BatchPlan } from './batch-plan.js';
import { type BatchResult, batchFolder } from './run-batch.js';

export interface BatchSummary {
  batchId: string;
  debates: number;
  completed: number;
  degraded: number;
  skipped: number;
  failed: number;
  stopped: number;
  realSeconds: number;
  peakConcurrentCalls: Record<string, number>;
  results: BatchResult[];
}

/** Counts the results and writes the summary beside the batch's plan; returns it and where it is. */
export function summariseBatch(
  plan: BatchPlan,
  outDir: string,
  results: BatchResult[],
  measured: { realMs: number; peakConcurrentCalls: Record<string, number> },
): { summary: BatchSummary; file: string } {
  const count = (outcome: BatchResult['outcome']) =>
    results.filter((result) => result.outcome === outcome).length;
  const summary: BatchSummary = {
    batchId: plan.batchId,
    debates: results.length,
    completed: count('completed'),
    degraded: count('degraded'),
    skipped: count('skipped'),
    failed: count('failed'),
    stopped: count('stopped'),
    realSeconds: Math.round(measured.realMs / 100) / 10,
    peakConcurrentCalls: measured.peakConcurrentCalls,
    results,
  };
  const file = path.join(batchFolder(outDir, plan.batchId), 'batch-summary.json');
  writeFileAtomic(file, `${JSON.stringify(summary, null, 2)}\n`);
  return { summary, file };
}
