/**
 * What a debate format provides to the runner: a fold, a pure planner and a step executor. The
 * runner owns the loop, the log and stopping; a format owns its rules and prompts. The runner is
 * handed a format through this contract and imports none of them.
 */
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { RunEvent, RunEventBody, RunStatus } from '../core/events.js';
import type { LiveNotice } from '../core/live.js';
import type { RunProgress } from '../core/run-progress.js';
import type { TextLayout } from '../core/text-layout.js';
import type { ModelProvider } from '../llm/provider.js';

export interface DoneStep {
  kind: 'done';
  status: Exclude<RunStatus, 'running'>;
  stopReason: string;
}

export interface StepContext {
  provider: ModelProvider;
  /** Appends a completed step's event to the log (flushed) and folds it into the run's state. */
  append(body: RunEventBody): RunEvent;
  notify(notice: LiveNotice): void;
  /** Aborts calls in flight (a second Ctrl-C). */
  signal: AbortSignal;
  clock: Clock;
  logger: Logger;
  /** The run's folder, for formats that write files of their own. */
  runDir: string;
  /**
   * Writes a file of the format's own (a council's packet, its decision record) whole or not at
   * all, creating its folder; the store, not the format, knows how.
   */
  writeFile(file: string, content: string): void;
  /**
   * Characters per token per model, measured from the run's events as they stood when this step
   * began (the same on a resume); a model not yet measured is absent.
   */
  tokenRates?: ReadonlyMap<string, number>;
}

export interface FormatDefinition<State, Step extends { kind: string }> {
  name: string;
  fold(state: State | undefined, event: RunEvent): State;
  next(state: State): Step | DoneStep;
  execute(step: Step, state: State, context: StepContext): Promise<void>;
  /** True once the run has a run-end event. */
  isFinished(state: State): boolean;
  /**
   * The failed steps that stand in the run's record, one line each (an emergency statement, a void
   * vote, an abstaining judge, a failed role, a state cut by the budget). A run that reaches its end
   * with any of them ends `degraded`, not `completed`.
   */
  failures(state: State): string[];
  progress(state: State): RunProgress;
  /** transcript.json: the run as data. */
  transcript(state: State): {
    runId: string;
    status: RunStatus;
    stopReason: string | null;
    error: string | null;
  };
  /** transcript.md: the run as a document. */
  markdown(state: State): string;
  /** The result and statistics shown at the end of a terminal run, fitted to `layout`. */
  report(state: State, layout?: TextLayout): string;
  /** The outcome as text for `--output` (a solution, say); the Markdown transcript when absent. */
  solutionText?(state: State): string;
  /**
   * The answer the user ran the format for, printed whole after the report; with `--quiet` the only
   * thing on stdout, so it can be redirected to a file.
   */
  answer?(state: State): string;
  /** Events that should refresh transcript.json and transcript.md (besides run-end). */
  checkpoints: ReadonlyArray<RunEvent['type']>;
  /**
   * Of the events `checkpoints` names, those that refresh the transcripts, given the state they
   * leave; all of them when absent. (A long run whose transcripts grow with it rewrites them at the
   * end of a unit of work, not after every event in it; the log stays the record either way.)
   */
  refreshesTranscripts?(event: RunEvent, state: State): boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: the runner drives formats whatever their state and steps
export type AnyFormat = FormatDefinition<any, { kind: string }>;
/** Finds a format by the name a run's log or a scenario gives. */
export type FormatLookup = (name: string) => AnyFormat | undefined;
