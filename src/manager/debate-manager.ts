/**
 * DebateManager: starts or resumes a knockout run in its folder, holds the run's lock, drives it
 * with the shared runner, and keeps `transcript.json` and `transcript.md` current after every
 * round and at the end.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Scenario } from '../config/scenario.js';
import { type Clock, systemClock } from '../core/clock.js';
import { ExitCode, RunError } from '../core/errors.js';
import type { RunEvent } from '../core/events.js';
import type { LiveNotice } from '../core/live.js';
import { knockoutFormat } from '../formats/knockout/index.js';
import { foldKnockout, type KnockoutState } from '../formats/knockout/state.js';
import { type KnockoutTranscript, knockoutTranscript } from '../formats/knockout/transcript.js';
import { knockoutMarkdown } from '../formats/knockout/transcript-markdown.js';
import type { ModelProvider } from '../llm/provider.js';
import { dropTornTail, readEventLog } from '../store/event-log.js';
import { makeRunId } from '../store/run-id.js';
import { acquireRunLock } from '../store/run-lock.js';
import { clearStopRequest, stopWasRequested } from '../store/stop-request.js';
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

export interface LoadedRun {
  paths: RunPaths;
  events: RunEvent[];
  state: KnockoutState;
  /** A torn last line (a write cut off by a crash) was found and dropped. */
  repairedTornLine: boolean;
}

/** Reads a run folder's log and folds it. A torn last line is cut off the file. */
export function loadRun(runDir: string): LoadedRun {
  const paths = runPaths(runDir);
  if (!existsSync(paths.events)) {
    throw new RunError(`${runDir} is not a run folder (it has no events.jsonl)`, {
      exitCode: ExitCode.usage,
    });
  }
  const { events, droppedTornLine } = readEventLog(paths.events);
  if (droppedTornLine) dropTornTail(paths.events);
  let state: KnockoutState | undefined;
  for (const event of events) state = foldKnockout(state, event);
  if (!state) throw new RunError(`${paths.events} holds no events`, { exitCode: ExitCode.runCorrupt });
  return { paths, events, state, repairedTornLine: droppedTornLine };
}

export interface DriveKnockoutOptions {
  paths: RunPaths;
  /** A new run: its id and scenario. */
  start?: { runId: string; scenario: Scenario };
  /** A resumed run: the events already in its log. */
  existing?: RunEvent[];
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

export function writeTranscripts(paths: RunPaths, state: KnockoutState): KnockoutTranscript {
  const transcript = knockoutTranscript(state);
  writeFileAtomic(paths.transcriptJson, `${JSON.stringify(transcript, null, 2)}\n`);
  writeFileAtomic(paths.transcriptMarkdown, knockoutMarkdown(transcript));
  return transcript;
}

export async function driveKnockout(options: DriveKnockoutOptions): Promise<RunOutcome> {
  const { paths, logger } = options;
  const release = acquireRunLock(paths.runDir);
  try {
    // A stop asked for while nothing was running must not end the next segment at once.
    clearStopRequest(paths.runDir);
    const first = options.start
      ? {
          type: 'run-start' as const,
          runId: options.start.runId,
          format: 'knockout',
          scenario: options.start.scenario,
          engineVersion: ENGINE_VERSION,
        }
      : { type: 'run-resume' as const, engineVersion: ENGINE_VERSION };
    logger.info(
      { runDir: paths.runDir, host: options.provider.host, resumed: !options.start },
      'run segment start',
    );
    const result = await driveRun({
      format: knockoutFormat,
      logFile: paths.events,
      existing: options.existing ?? [],
      first,
      provider: options.provider,
      clock: options.clock ?? systemClock,
      logger,
      signal: options.signal ?? new AbortController().signal,
      stopRequested: () => options.stopRequested?.() === true || stopWasRequested(paths.runDir),
      ...(options.onNotice ? { onNotice: options.onNotice } : {}),
      onEvent: (event, state) => {
        options.onEvent?.(event);
        if (event.type === 'round-end' || event.type === 'run-end') writeTranscripts(paths, state);
      },
    });
    const transcript = writeTranscripts(paths, result.state);
    logger.info({ status: transcript.status, stopReason: transcript.stopReason }, 'run segment end');
    return result.error === undefined ? { transcript } : { transcript, error: result.error };
  } finally {
    clearStopRequest(paths.runDir);
    release();
  }
}
