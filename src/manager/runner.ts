/**
 * The runner loop shared by every format: ask the planner for the next step, run it, append each
 * completed step's events to the log (flushed) and fold them into the state; repeat until done.
 * A failed step ends the run as `failed` with everything before it kept.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import { MeasuredRates } from '../context/token-rates.js';
import type { Clock } from '../core/clock.js';
import type { RunEvent, RunEventBody, RunResumeEvent, RunStartEvent } from '../core/events.js';
import type { LiveNotice } from '../core/live.js';
import { AWAITING_PERSON, PersonAbsent } from '../core/person-seat.js';
import type { DoneStep, FormatDefinition, StepContext } from '../formats/format-definition.js';
import type { ModelProvider } from '../llm/provider.js';
import { EventLog } from '../store/event-log.js';
import { writeFileInFolder } from '../store/write-files.js';

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
  /**
   * Checked between steps: true ends this segment without ending the run, and without writing
   * anything (a worker going away hands its runs over to the others).
   */
  handOverRequested?: () => boolean;
  /**
   * A step that failed with such an error ends the segment without ending the run, for another
   * process to go on with (a worker whose own model server went away).
   */
  handOverOnFailure?: (error: unknown) => boolean;
  onEvent?: (event: RunEvent, state: State) => void;
  onNotice?: (notice: LiveNotice) => void;
  /**
   * A second store the run is kept in (the shared database): handed the events of each completed
   * step, and awaited before the next step begins. A rejection ends the segment at once, with
   * nothing more written anywhere: a run whose shared record cannot be written (another worker
   * took it over, the database went away) must not go on.
   */
  commit?: (events: RunEvent[]) => Promise<void>;
  /** Awaited once the first event is written, before the first step (a new run loads its models). */
  beforeSteps?: () => Promise<unknown>;
}

export interface DriveRunResult<State> {
  state: State;
  /** The error that ended the run, when it failed. */
  error?: unknown;
  /** The segment ended between steps with the run still going, for another process to go on with. */
  handedOver?: boolean;
  /**
   * The second store refused (or failed to take) this segment's last events: whatever the state
   * says, that store does not hold them, so this process does not own the run's outcome.
   */
  commitRefused?: boolean;
}

export async function driveRun<State, Step extends { kind: string }>(
  options: DriveRunOptions<State, Step>,
): Promise<DriveRunResult<State>> {
  const { format, clock, logger } = options;
  let state: State | undefined;
  // Each model's characters per token, from the prompts and token counts the events record.
  const rates = new MeasuredRates();
  for (const event of options.existing) {
    state = format.fold(state, event);
    rates.add(event);
  }
  const log = EventLog.open(options.logFile, options.existing.length, options.existing.at(-1));
  let uncommitted: RunEvent[] = [];
  const append = (body: RunEventBody): RunEvent => {
    const event = log.append(body, clock.now());
    rates.add(event);
    if (options.commit) uncommitted.push(event);
    state = format.fold(state, event);
    logger.debug({ seq: event.seq, type: event.type }, 'event appended');
    options.onEvent?.(event, state);
    return event;
  };
  /** Hands the completed step's events to the second store; false when it refused them. */
  let commitError: unknown;
  const commit = async (): Promise<boolean> => {
    if (!options.commit || uncommitted.length === 0) return true;
    const events = uncommitted;
    uncommitted = [];
    try {
      await options.commit(events);
      return true;
    } catch (error) {
      commitError = error;
      logger.error({ err: error }, 'commit failed');
      return false;
    }
  };
  const committed = async (): Promise<DriveRunResult<State> | undefined> =>
    (await commit()) ? undefined : { state: state as State, error: commitError, commitRefused: true };
  try {
    if (options.first) append(options.first);
    if (state === undefined) throw new Error('the run has no run-start event');
    const fail = async (error: unknown, stepKind: string): Promise<DriveRunResult<State>> => {
      // A step that failed because the shared record was refused writes nothing more.
      if (commitError !== undefined)
        return { state: state as State, error: commitError, commitRefused: true };
      const message = error instanceof Error ? error.message : String(error);
      const aborted = options.signal.aborted;
      logger.error({ err: error, step: stepKind }, 'step failed');
      if (!aborted && options.handOverOnFailure?.(error)) {
        return { state: state as State, error, handedOver: true };
      }
      // A person who has not spoken pauses the run at their turn; nothing stands in for them.
      if (!aborted && error instanceof PersonAbsent) {
        append({ type: 'run-end', status: 'stopped', stopReason: AWAITING_PERSON, error: message });
        if (!(await commit())) return { state: state as State, error, commitRefused: true };
        return { state: state as State };
      }
      append({
        type: 'run-end',
        status: aborted ? 'stopped' : 'failed',
        stopReason: aborted ? 'aborted' : 'error',
        error: message,
      });
      // A step cut short because the run's lease was lost ends here, but the shared record does not
      // take that end: the outcome must say so, as for any refused step.
      if (!(await commit())) return { state: state as State, error, commitRefused: true };
      return { state: state as State, error };
    };
    const early = await committed();
    if (early) return early;
    await options.beforeSteps?.();
    const context: StepContext = {
      provider: options.provider,
      append,
      notify: (notice) => options.onNotice?.(notice),
      signal: options.signal,
      clock,
      logger,
      runDir: path.dirname(options.logFile),
      writeFile: writeFileInFolder,
    };
    while (!format.isFinished(state as State)) {
      let step: Step | DoneStep;
      try {
        step = format.next(state as State);
      } catch (error) {
        return await fail(error, 'plan');
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
        return (await committed()) ?? { state: state as State };
      }
      if (options.stopRequested?.()) {
        append({ type: 'run-end', status: 'stopped', stopReason: 'manual-stop' });
        return (await committed()) ?? { state: state as State };
      }
      if (options.handOverRequested?.()) return { state: state as State, handedOver: true };
      logger.debug({ step: step.kind }, 'step start');
      try {
        await format.execute(step as Step, state as State, { ...context, tokenRates: rates.snapshot() });
      } catch (error) {
        return await fail(error, step.kind);
      }
      const refused = await committed();
      if (refused) return refused;
    }
    return { state: state as State };
  } finally {
    log.close();
  }
}
