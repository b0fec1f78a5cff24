/**
 * The runner loop shared by every format: ask the planner for the next step, run it, append each
 * completed step's events to the log (flushed) and fold them into the state; repeat until done.
 * A failed step ends the run as `failed` with everything before it kept.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { RunEvent, RunEventBody, RunResumeEvent, RunStartEvent } from '../core/events.js';
import type { DoneStep, FormatDefinition, StepContext } from '../core/format.js';
import type { LiveNotice } from '../core/live.js';
import type { ModelProvider } from '../llm/provider.js';
import { EventLog } from '../store/event-log.js';

export interface DriveRunOptions<State, Step extends { kind: string }> {
  format: FormatDefinition<State, Step>;
  logFile: string;
  /** Events already in the log (empty for a new run). */
  existing: RunEvent[];
  /** Appended before the first step: `run-start` for a new run, `run-resume` for a resumed one. */
  first?: RunStartEvent | RunResumeEvent;
  provider: ModelProvider;
  clock: Clock;
  logger: Logger;
  /** Aborts model calls in flight. */
  signal: AbortSignal;
  /** Checked between steps: true ends the run as stopped once the step in flight has completed. */
  stopRequested?: () => boolean;
  onEvent?: (event: RunEvent, state: State) => void;
  onNotice?: (notice: LiveNotice) => void;
}

export interface DriveRunResult<State> {
  state: State;
  /** The error that ended the run, when it failed. */
  error?: unknown;
}

export async function driveRun<State, Step extends { kind: string }>(
  options: DriveRunOptions<State, Step>,
): Promise<DriveRunResult<State>> {
  const { format, clock, logger } = options;
  let state: State | undefined;
  for (const event of options.existing) state = format.fold(state, event);
  const log = EventLog.open(options.logFile, options.existing.length);
  const append = (body: RunEventBody): RunEvent => {
    const event = log.append(body, clock.now());
    state = format.fold(state, event);
    logger.debug({ seq: event.seq, type: event.type }, 'event appended');
    options.onEvent?.(event, state);
    return event;
  };
  try {
    if (options.first) append(options.first);
    if (state === undefined) throw new Error('the run has no run-start event');
    const fail = (error: unknown, stepKind: string): DriveRunResult<State> => {
      const message = error instanceof Error ? error.message : String(error);
      const aborted = options.signal.aborted;
      logger.error({ err: error, step: stepKind }, 'step failed');
      append({
        type: 'run-end',
        status: aborted ? 'stopped' : 'failed',
        stopReason: aborted ? 'aborted' : 'error',
        error: message,
      });
      return { state: state as State, error };
    };
    const context: StepContext = {
      provider: options.provider,
      append,
      notify: (notice) => options.onNotice?.(notice),
      signal: options.signal,
      clock,
      logger,
      runDir: path.dirname(options.logFile),
    };
    while (!format.isFinished(state as State)) {
      let step: Step | DoneStep;
      try {
        step = format.next(state as State);
      } catch (error) {
        return fail(error, 'plan');
      }
      // A finished debate ends as finished, even when a stop was asked for during its last step.
      if (step.kind === 'done') {
        const done = step as DoneStep;
        // A debate that reached its end with failures in its record did not simply complete.
        const failedSteps = done.status === 'completed' ? format.failures(state as State).length : 0;
        append(
          failedSteps > 0
            ? { type: 'run-end', status: 'degraded', stopReason: done.stopReason, failedSteps }
            : { type: 'run-end', status: done.status, stopReason: done.stopReason },
        );
        break;
      }
      if (options.stopRequested?.()) {
        append({ type: 'run-end', status: 'stopped', stopReason: 'manual-stop' });
        break;
      }
      logger.debug({ step: step.kind }, 'step start');
      try {
        await format.execute(step as Step, state as State, context);
      } catch (error) {
        return fail(error, step.kind);
      }
    }
    return { state: state as State };
  } finally {
    log.close();
  }
}
