/** Reads what a run wrote. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { KnockoutTranscript } from '../../src/formats/knockout/transcript.js';

export function onlyRunDir(outDir: string): string {
  // Run folders are the ones with an event log (not batches/ or a council's notes/).
  const runs = readdirSync(outDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(outDir, entry.name, 'events.jsonl')))
    .map((entry) => entry.name);
  if (runs.length !== 1) throw new Error(`expected one run in ${outDir}, found ${runs.length}`);
  return path.join(outDir, runs[0] as string);
}

export function readTranscript(runDir: string): KnockoutTranscript {
  return JSON.parse(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')) as KnockoutTranscript;
}

export function readEvents(runDir: string): Array<Record<string, unknown> & { type: string; seq: number }> {
  return readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/**
 * The transcript without what legitimately differs between two identical runs: times (a model's
 * load time among them) and ids, and the log position it was made from (the hash of a log whose
 * lines carry their times).
 */
export function comparable(transcript: KnockoutTranscript | undefined): unknown {
  if (!transcript) throw new Error('no transcript was written');
  return JSON.parse(
    JSON.stringify(transcript, (key, value) =>
      [
        'runId',
        'startedAt',
        'updatedAt',
        'realMs',
        'loadMs',
        'slow',
        'slowRounds',
        'active_seconds',
        'logPosition',
      ].includes(key)
        ? undefined
        : value,
    ),
  );
}
