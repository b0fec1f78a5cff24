/** How far a run has come, whatever its format. */
import type { RunStatus } from './events.js';

/** What `agora runs` and the run index show of a run, whatever its format. */
export interface RunProgress {
  runId: string;
  format: string;
  topic: string;
  status: RunStatus;
  stopReason: string | null;
  /** Failed steps that stand in the record (see FormatDefinition.failures). */
  failedSteps: number;
  /** Rounds or phases done, and how many there are at most. */
  done: number;
  total: number;
}

/** A run's progress from the parts every format's state has. */
export function runProgress(
  format: string,
  state: {
    runId: string;
    scenario: { topic: string };
    end: { status: RunProgress['status']; stopReason: string } | null;
  },
  done: number,
  total: number,
  failedSteps: number,
): RunProgress {
  return {
    runId: state.runId,
    format,
    topic: state.scenario.topic,
    status: state.end?.status ?? 'running',
    stopReason: state.end?.stopReason ?? null,
    failedSteps,
    done,
    total,
  };
}
