/**
 * DebateManager: starts a knockout run in its own folder, drives it with the shared runner and
 * keeps `transcript.json` and `transcript.md` up to date after every round and at the end.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Scenario } from '../config/scenario.js';
import { type Clock, systemClock } from '../core/clock.js';
import type { RunEvent } from '../core/events.js';
import type { LiveNotice } from '../core/live.js';
import { knockoutFormat } from '../formats/knockout/index.js';
import type { KnockoutState } from '../formats/knockout/state.js';
import { type KnockoutTranscript, knockoutTranscript } from '../formats/knockout/transcript.js';
import { knockoutMarkdown } from '../formats/knockout/transcript-markdown.js';
import type { ModelProvider } from '../llm/provider.js';
import { makeRunId } from '../store/run-id.js';
import { writeFileAtomic } from '../store/write-files.js';
import { driveRun } from './runner.js';

export const ENGINE_VERSION = '0.1.0';

export interface RunPaths {
  runDir: string;
  events: string;
  log: string;
  transcriptJson: string;
  transcriptMarkdown: string;
}

export function runPaths(runDir: string): RunPaths {
  return {
    runDir,
    events: path.join(runDir, 'events.jsonl'),
    log: path.join(runDir, 'run.log'),
    transcriptJson: path.join(runDir, 'transcript.json'),
    transcriptMarkdown: path.join(runDir, 'transcript.md'),
  };
}

/** Picks a fresh run folder under `outDir`. */
export function createRunDir(
  outDir: string,
  scenario: Scenario,
  clock: Clock = systemClock,
): { runId: string; paths: RunPaths } {
  const base = makeRunId(clock.now(), scenario.topic, scenario.seed);
  let runId = base;
  for (let suffix = 2; existsSync(path.join(outDir, runId)); suffix += 1) runId = `${base}-${suffix}`;
  const runDir = path.join(outDir, runId);
  mkdirSync(runDir, { recursive: true });
  return { runId, paths: runPaths(runDir) };
}

export interface StartRunOptions {
  scenario: Scenario;
  runId: string;
  paths: RunPaths;
  provider: ModelProvider;
  logger: Logger;
  clock?: Clock;
  signal?: AbortSignal;
  stopRequested?: () => boolean;
  onNotice?: (notice: LiveNotice) => void;
  onEvent?: (event: RunEvent) => void;
}

export interface RunOutcome {
  transcript: KnockoutTranscript;
  error?: unknown;
}

export async function runKnockout(options: StartRunOptions): Promise<RunOutcome> {
  const writeTranscripts = (state: KnockoutState) => {
    const transcript = knockoutTranscript(state);
    writeFileAtomic(options.paths.transcriptJson, `${JSON.stringify(transcript, null, 2)}\n`);
    writeFileAtomic(options.paths.transcriptMarkdown, knockoutMarkdown(transcript));
    return transcript;
  };
  options.logger.info(
    { runId: options.runId, host: options.provider.host, topic: options.scenario.topic },
    'run start',
  );
  const result = await driveRun({
    format: knockoutFormat,
    logFile: options.paths.events,
    existing: [],
    start: {
      type: 'run-start',
      runId: options.runId,
      format: 'knockout',
      scenario: options.scenario,
      engineVersion: ENGINE_VERSION,
    },
    provider: options.provider,
    clock: options.clock ?? systemClock,
    logger: options.logger,
    signal: options.signal ?? new AbortController().signal,
    ...(options.stopRequested ? { stopRequested: options.stopRequested } : {}),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    onEvent: (event, state) => {
      options.onEvent?.(event);
      if (event.type === 'round-end' || event.type === 'run-end') writeTranscripts(state);
    },
  });
  const transcript = writeTranscripts(result.state);
  options.logger.info(
    { runId: options.runId, status: transcript.status, stopReason: transcript.stopReason },
    'run end',
  );
  return result.error === undefined ? { transcript } : { transcript, error: result.error };
}
