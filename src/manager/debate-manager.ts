/**
 * DebateManager: starts or resumes a run of any format in its folder, holds the run's lock, drives
 * it with the shared runner, and keeps `transcript.json` and `transcript.md` current after every
 * checkpoint (a round, a phase) and at the end. It is handed the format; it imports none.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Scenario } from '../config/scenario.js';
import { stopConditionsText } from '../config/stop-conditions-text.js';
import { type Clock, systemClock } from '../core/clock.js';
import { ExitCode, RunError, UsageError } from '../core/errors.js';
import type { RunEvent } from '../core/events.js';
import type { FormatDefinition } from '../core/format.js';
import type { LiveNotice } from '../core/live.js';
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

// biome-ignore lint/suspicious/noExplicitAny: the manager drives formats whatever their state and steps
export type AnyFormat = FormatDefinition<any, { kind: string }>;
export type FormatLookup = (name: string) => AnyFormat | undefined;

/** A new run's folder with the id the caller chose; refused when a run of that id exists. */
export function newNamedRunDir(outDir: string, runId: string): RunPaths {
  if (existsSync(path.join(outDir, runId, 'events.jsonl'))) {
    throw new UsageError(
      `a run with the id ${runId} already exists in ${outDir}; pick another id, or continue it with \`agora resume ${runId}\``,
    );
  }
  return namedRunDir(outDir, runId);
}

/** A run folder with a name fixed in advance (a batch's runs), created if missing. */
export function namedRunDir(outDir: string, runId: string): RunPaths {
  const runDir = path.join(outDir, runId);
  mkdirSync(runDir, { recursive: true });
  return runPaths(runDir);
}

export interface LoadedRun {
  paths: RunPaths;
  events: RunEvent[];
  format: AnyFormat;
  state: unknown;
  runId: string;
  scenario: Scenario;
  /** A torn last line (a write cut off by a crash) was found and dropped. */
  repairedTornLine: boolean;
}

/** Reads a run folder's log and folds it with its format. A torn last line is cut off the file. */
export function loadRun(
  runDir: string,
  formats: FormatLookup,
  options: { repair?: boolean } = {},
): LoadedRun {
  const paths = runPaths(runDir);
  if (!existsSync(paths.events)) {
    throw new RunError(`${runDir} is not a run folder (it has no events.jsonl)`, {
      exitCode: ExitCode.usage,
    });
  }
  const { events, droppedTornLine } = readEventLog(paths.events);
  // Only the lock's holder may cut the file; a reader just ignores the torn line.
  if (droppedTornLine && options.repair) dropTornTail(paths.events);
  const start = events[0];
  if (start?.type !== 'run-start') {
    throw new RunError(`${paths.events} does not begin with a run-start event`, {
      exitCode: ExitCode.runCorrupt,
    });
  }
  const format = formats(start.format);
  if (!format) {
    throw new RunError(`${runDir} is a "${start.format}" run, which this version of Agora cannot run`, {
      exitCode: ExitCode.runCorrupt,
    });
  }
  let state: unknown;
  for (const event of events) state = format.fold(state, event);
  return {
    paths,
    events,
    format,
    state,
    runId: start.runId,
    scenario: start.scenario,
    repairedTornLine: droppedTornLine,
  };
}

export interface DriveOptions {
  format: AnyFormat;
  paths: RunPaths;
  /** A new run: its id and scenario. */
  start?: { runId: string; scenario: Scenario };
  /** A resumed run: the events already in its log. */
  existing?: RunEvent[];
  /** The caller already holds the run's lock (a resume takes it before reading the log). */
  lockHeld?: boolean;
  /** The provider is Agora's built-in simulator: the log says so, so no view takes the text for a model's. */
  simulated?: boolean;
  provider: ModelProvider;
  logger: Logger;
  clock?: Clock;
  signal?: AbortSignal;
  stopRequested?: () => boolean;
  onNotice?: (notice: LiveNotice) => void;
  onEvent?: (event: RunEvent) => void;
}

export interface RunOutcome {
  state: unknown;
  transcript: ReturnType<AnyFormat['transcript']>;
  error?: unknown;
}

/**
 * Writes transcript.json and transcript.md. Whatever the format, both say which stop conditions
 * were in force and list the failed steps that stand in the record.
 */
export function writeTranscripts(format: AnyFormat, paths: RunPaths, state: unknown) {
  const transcript = format.transcript(state);
  const scenario = (state as { scenario: Scenario }).scenario;
  const failures = format.failures(state);
  const stopConditions = stopConditionsText(scenario);
  writeFileAtomic(
    paths.transcriptJson,
    `${JSON.stringify({ ...transcript, stopConditions, failedSteps: failures.length, failures }, null, 2)}\n`,
  );
  const failureSection =
    failures.length === 0
      ? ''
      : `\n## Failed steps (${failures.length})\n\nThese steps failed; what stands in their place is not a model's answer.\n\n${failures.map((line) => `- ${line}`).join('\n')}\n`;
  writeFileAtomic(
    paths.transcriptMarkdown,
    `${format.markdown(state).trimEnd()}\n\n_${stopConditions}._\n${failureSection}`,
  );
  return transcript;
}

export async function driveDebate(options: DriveOptions): Promise<RunOutcome> {
  const { paths, logger, format } = options;
  const release = options.lockHeld ? () => undefined : acquireRunLock(paths.runDir);
  try {
    // A stop asked for while nothing was running must not end the next segment at once.
    clearStopRequest(paths.runDir);
    const first = options.start
      ? {
          type: 'run-start' as const,
          runId: options.start.runId,
          format: format.name,
          scenario: options.start.scenario,
          engineVersion: ENGINE_VERSION,
          ...(options.simulated ? { simulated: true } : {}),
        }
      : {
          type: 'run-resume' as const,
          engineVersion: ENGINE_VERSION,
          ...(options.simulated ? { simulated: true } : {}),
        };
    logger.info(
      { runDir: paths.runDir, host: options.provider.host, resumed: !options.start },
      'run segment start',
    );
    // The transcripts are a pure function of the state: a state already written (at run-end) is
    // not rendered and written again.
    let written: { state: unknown; transcript: ReturnType<AnyFormat['transcript']> } | undefined;
    const refresh = (state: unknown) => {
      if (written !== undefined && written.state === state) return written.transcript;
      const transcript = writeTranscripts(format, paths, state);
      written = { state, transcript };
      return transcript;
    };
    const result = await driveRun({
      format,
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
        if (event.type === 'run-end' || format.checkpoints.includes(event.type)) refresh(state);
      },
    });
    const transcript = refresh(result.state);
    logger.info({ status: transcript.status, stopReason: transcript.stopReason }, 'run segment end');
    const outcome = { state: result.state, transcript };
    return result.error === undefined ? outcome : { ...outcome, error: result.error };
  } finally {
    clearStopRequest(paths.runDir);
    release();
  }
}
