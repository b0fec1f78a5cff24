/** Run folders written from events, and the run index built over them, for tests of the leaderboard's tables. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunEvent } from '../../src/core/events.js';
import { formatNamed } from '../../src/formats/index.js';
import { rebuildIndex } from '../../src/manager/indexing.js';
import type { RunIndex } from '../../src/store/run-index.js';

/** Writes `events` as the log of run `runId` under `outDir`; returns its folder. */
export function writeRun(outDir: string, runId: string, events: RunEvent[]): string {
  const runDir = path.join(outDir, runId);
  mkdirSync(runDir, { recursive: true });
  const renamed = events.map((event) => (event.type === 'run-start' ? { ...event, runId } : event));
  writeFileSync(
    path.join(runDir, 'events.jsonl'),
    renamed.map((event) => `${JSON.stringify(event)}\n`).join(''),
  );
  return runDir;
}

/** The index of every run under `outDir`, built from their logs; the caller closes it. */
export function indexOf(outDir: string): RunIndex {
  const { index, skipped } = rebuildIndex(outDir, formatNamed);
  if (skipped.length > 0) throw new Error(`runs left out of the index: ${skipped.join('; ')}`);
  return index;
}
