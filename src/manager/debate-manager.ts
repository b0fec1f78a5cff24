/**
 * DebateManager: starts or resumes a run of any format in its folder, holds the run's lock, drives
 * it with the shared runner, and keeps `transcript.json` and `transcript.md` current after every
 * checkpoint (a round, a phase) and at the end. It is handed the format; it imports none.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Scenario } from '../config/scenario.js';
import { stopConditionsText } from '../config/stop-conditions-text.js';
import { type Clock, systemClock } from '../core/clock.js';
import { ExitCode, RunError, UsageError } from '../core/errors.js';
import { isSimulated, type RunEvent } from '../core/events.js';
import type { LiveNotice } from '../core/live.js';
import type { AnyFormat, FormatLookup } from '../formats/format-definition.js';
import type { ModelProvider } from '../llm/provider.js';
import { derivedFilesStale } from '../store/derived-files.js';
import type { ChainReport } from '../store/event-chain.js';
import { dropTornTail, endLastLine, readEventLog } from '../store/event-log.js';
import {
  JSON_POSITION_MEMBER,
  type LogPosition,
  markdownPositionNote,
  positionAfter,
} from '../store/log-position.js';
import { inspectRunFolder } from '../store/run-folder.js';
import { makeCouncilRunId, makeRunId, startAdvice } from '../store/run-id.js';
import { acquireRunLock, lockOwner } from '../store/run-lock.js';
import { clearStopRequest, stopWasRequested } from '../store/stop-request.js';
import { guardStorage, storageFailure } from '../store/storage-failure.js';
import { writeFileAtomic } from '../store/write-files.js';
import { loadModelsAhead } from './model-loading.js';
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

/** Picks a fresh run folder under `outDir`, and creates it: a folder that exists is never reused. */
export function createRunDir(
  outDir: string,
  scenario: Scenario,
  clock: Clock = systemClock,
): { runId: string; paths: RunPaths } {
  // A council's id has the Final Packet's form, which has no room for a counter: another random
  // suffix is drawn instead.
  const nextId =
    scenario.format === 'council'
      ? () => makeCouncilRunId(clock.now())
      : (() => {
          const base = makeRunId(clock.now(), scenario.topic, scenario.seed);
          let suffix = 0;
          return () => {
            suffix += 1;
            return suffix === 1 ? base : `${base}-${suffix}`;
          };
        })();
  guardStorage(outDir, 'create the runs folder', () => mkdirSync(outDir, { recursive: true }));
  for (;;) {
    const runId = nextId();
    const runDir = path.join(outDir, runId);
    try {
      // Not recursive: another process that picked the same name first keeps it.
      mkdirSync(runDir);
      return { runId, paths: runPaths(runDir) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw storageFailure(error, runDir, 'create');
    }
  }
}

/**
 * A new run's folder with the id the caller chose. A run folder is never written over: only a
 * missing or empty folder, or one left by a run that never started, is used. `lockHeld`: the
 * caller holds the folder's lock already (a batch locks its run's folder before it looks inside).
 */
export function newNamedRunDir(
  outDir: string,
  runId: string,
  options: { lockHeld?: boolean } = {},
): RunPaths {
  const runDir = path.join(outDir, runId);
  const folder = inspectRunFolder(runDir);
  switch (folder.kind) {
    case 'missing':
    case 'empty':
      return namedRunDir(outDir, runId);
    case 'unstarted': {
      // Its log, if any, is cleared once the run's lock is held (EventLog.open for a new run).
      const owner = options.lockHeld ? null : lockOwner(runDir);
      if (owner !== null) {
        throw new RunError(`the run in ${runDir} is being started by process ${owner}; pick another id`, {
          exitCode: ExitCode.runLocked,
        });
      }
      return runPaths(runDir);
    }
    case 'started':
      throw new UsageError(
        `a run with the id ${runId} already exists in ${outDir}; pick another id, or continue it with \`agora resume ${runId}\``,
      );
    case 'damaged':
      throw new RunError(
        `${runDir} holds a damaged run: ${folder.reason}. It is not written over; pick another id, or move the folder away`,
        { exitCode: ExitCode.runCorrupt },
      );
    case 'other':
      throw new UsageError(
        `${runDir} already exists and is not a run folder (it holds ${folder.files.slice(0, 3).join(', ')}${folder.files.length > 3 ? ', ...' : ''}); it is not written over: pick another id`,
      );
  }
}

/** A run folder with a name fixed in advance (a batch's runs), created if missing. */
export function namedRunDir(outDir: string, runId: string): RunPaths {
  const runDir = path.join(outDir, runId);
  guardStorage(runDir, 'create', () => mkdirSync(runDir, { recursive: true }));
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
  /** The last line was a whole event without its final newline, and was ended (only when repairing). */
  endedLastLine: boolean;
  /** transcript.json and transcript.md were behind the log (or missing) and were written anew from it. */
  refreshedFiles: boolean;
  /** How many events the log's hash chain covers, and how many were written before it. */
  chain: ChainReport;
}

/**
 * Reads a run folder's log and folds it with its format. A torn last line is cut off the file.
 * transcript.json and transcript.md older than the log (a process killed between its last event
 * and their rewrite) are written anew from it, unless another live process is writing the run.
 */
export function loadRun(
  runDir: string,
  formats: FormatLookup,
  options: { repair?: boolean } = {},
): LoadedRun {
  const paths = runPaths(runDir);
  const folder = inspectRunFolder(runDir);
  if (folder.kind === 'damaged') {
    throw new RunError(`${runDir} is a damaged run: ${folder.reason}`, { exitCode: ExitCode.runCorrupt });
  }
  if (folder.kind === 'unstarted') {
    // Its scenario is in the run-start event that was never written: only `run` can start it.
    throw new RunError(
      `the run in ${runDir} never started (the process ended before its first event was written), so there is nothing to continue or show; ${startAdvice(runDir)}`,
      { exitCode: ExitCode.usage },
    );
  }
  if (folder.kind !== 'started') {
    throw new RunError(`${runDir} is not a run folder (it has no events.jsonl)`, {
      exitCode: ExitCode.usage,
    });
  }
  const { events, droppedTornLine, unendedLastLine, chain } = readEventLog(paths.events);
  // Only the lock's holder may cut or end the file's last line; a reader reads past it.
  if (droppedTornLine && options.repair) dropTornTail(paths.events);
  const endedLastLine = unendedLastLine && options.repair === true;
  if (endedLastLine) endLastLine(paths.events);
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
  let refreshedFiles = false;
  if (derivedFilesStale(runDir)) {
    try {
      writeTranscripts(format, paths, state, {
        simulated: isSimulated(events),
        position: positionAfter(events.at(-1)),
      });
      refreshedFiles = true;
    } catch {
      // A folder this reader cannot write to (read-only, full): it still reads the run from the log.
    }
  }
  return {
    paths,
    events,
    format,
    state,
    runId: start.runId,
    scenario: start.scenario,
    repairedTornLine: droppedTornLine,
    endedLastLine,
    refreshedFiles,
    chain,
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
  /** The shared store the run is also kept in, step by step (see DriveRunOptions.commit). */
  commit?: (events: RunEvent[]) => Promise<void>;
  /** Checked between steps: true ends the segment with the run still going (see DriveRunOptions). */
  handOverRequested?: () => boolean;
  /** A step failure that hands the run over instead of ending it (see DriveRunOptions). */
  handOverOnFailure?: (error: unknown) => boolean;
}

export interface RunOutcome {
  state: unknown;
  transcript: ReturnType<AnyFormat['transcript']>;
  error?: unknown;
  /** The run is still going: this segment handed it over between steps. */
  handedOver?: boolean;
  /** The shared database did not take this segment's last events (see DriveRunResult). */
  commitRefused?: boolean;
}

/** The first line of a demo run's Markdown transcript. */
export const SIMULATED_NOTE =
  "> Demo run: the statements were generated by Agora's built-in simulator, not by a language model.";

/**
 * Writes transcript.json and transcript.md. Whatever the format, both say which stop conditions
 * were in force and list the failed steps that stand in the record; both end with the log
 * position they were made from (`position`: the last event folded into `state`), which is how a
 * reader knows whether they are behind the log.
 */
export function writeTranscripts(
  format: AnyFormat,
  paths: RunPaths,
  state: unknown,
  options: { simulated?: boolean; position: LogPosition | null },
) {
  const transcript = format.transcript(state);
  const scenario = (state as { scenario: Scenario }).scenario;
  const failures = format.failures(state);
  const stopConditions = stopConditionsText(scenario);
  writeFileAtomic(
    paths.transcriptJson,
    `${JSON.stringify({ ...transcript, ...(options.simulated ? { simulated: true } : {}), stopConditions, failedSteps: failures.length, failures, ...(options.position ? { [JSON_POSITION_MEMBER]: options.position } : {}) }, null, 2)}\n`,
  );
  const failureSection =
    failures.length === 0
      ? ''
      : `\n## Failed steps (${failures.length})\n\nThese steps failed; what stands in their place is not a model's answer.\n\n${failures.map((line) => `- ${line}`).join('\n')}\n`;
  writeFileAtomic(
    paths.transcriptMarkdown,
    `${options.simulated ? `${SIMULATED_NOTE}\n\n` : ''}${format.markdown(state).trimEnd()}\n\n_${stopConditions}._\n${failureSection}${options.position ? `\n${markdownPositionNote(options.position)}` : ''}`,
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
    const simulated = options.simulated === true || isSimulated(options.existing ?? []);
    // The last event folded into the state the transcripts are made from.
    let last = options.existing?.at(-1);
    const refresh = (state: unknown) => {
      if (written !== undefined && written.state === state) return written.transcript;
      const transcript = writeTranscripts(format, paths, state, { simulated, position: positionAfter(last) });
      written = { state, transcript };
      return transcript;
    };
    const start = options.start;
    const stopRequested = () => options.stopRequested?.() === true || stopWasRequested(paths.runDir);
    const result = await driveRun({
      format,
      logFile: paths.events,
      existing: options.existing ?? [],
      first,
      provider: options.provider,
      clock: options.clock ?? systemClock,
      logger,
      signal: options.signal ?? new AbortController().signal,
      stopRequested,
      ...(options.onNotice ? { onNotice: options.onNotice } : {}),
      ...(options.commit ? { commit: options.commit } : {}),
      ...(options.handOverRequested ? { handOverRequested: options.handOverRequested } : {}),
      ...(options.handOverOnFailure ? { handOverOnFailure: options.handOverOnFailure } : {}),
      // A new run's models are loaded before its first step, not inside its first round.
      ...(start
        ? {
            beforeSteps: () =>
              loadModelsAhead(options.provider, start.scenario, {
                logger,
                stopRequested,
                ...(options.signal ? { signal: options.signal } : {}),
              }),
          }
        : {}),
      onEvent: (event, state) => {
        last = event;
        options.onEvent?.(event);
        if (
          event.type === 'run-end' ||
          (format.checkpoints.includes(event.type) && (format.refreshesTranscripts?.(event, state) ?? true))
        )
          refresh(state);
      },
    });
    const transcript = refresh(result.state);
    logger.info({ status: transcript.status, stopReason: transcript.stopReason }, 'run segment end');
    const outcome = {
      state: result.state,
      transcript,
      ...(result.handedOver ? { handedOver: true } : {}),
      ...(result.commitRefused ? { commitRefused: true } : {}),
    };
    return result.error === undefined ? outcome : { ...outcome, error: result.error };
  } finally {
    clearStopRequest(paths.runDir);
    release();
  }
}
