/**
 * State for formats made of statements and judges' assessments (formal, duel): a pure fold over
 * their events, with the usage counters the shared stop conditions read.
 */
import type { Scenario } from '../../config/scenario.js';
import type {
  ArtifactEvent,
  AssessmentEvent,
  RunEndEvent,
  RunEvent,
  StatementEvent,
  Stored,
} from '../../core/events.js';
import { type FailureStreaks, NO_FAILURES, recordStep } from '../../core/failure-streaks.js';

export interface SequenceState<S extends Scenario> {
  runId: string;
  scenario: S;
  engineVersion: string;
  startedAt: string;
  updatedAt: string;
  statements: Array<Stored<StatementEvent>>;
  assessments: Array<Stored<AssessmentEvent>>;
  artifacts: Array<Stored<ArtifactEvent>>;
  end: Stored<RunEndEvent> | null;
  outputTokens: number;
  activeMs: number;
  /** Failed model steps in a row, per agent and per model. */
  failures: FailureStreaks;
}

export function foldSequence<S extends Scenario>(
  state: SequenceState<S> | undefined,
  event: RunEvent,
): SequenceState<S> {
  if (event.type === 'run-start') {
    return {
      runId: event.runId,
      scenario: event.scenario as S,
      engineVersion: event.engineVersion,
      startedAt: event.at,
      updatedAt: event.at,
      statements: [],
      assessments: [],
      artifacts: [],
      end: null,
      outputTokens: 0,
      activeMs: 0,
      failures: NO_FAILURES,
    };
  }
  if (!state) throw new Error(`event ${event.seq} (${event.type}) comes before run-start`);
  const next: SequenceState<S> = { ...state, updatedAt: event.at };
  if (event.type === 'run-resume')
    return { ...withoutTrailingFailures(next), end: null, failures: NO_FAILURES };
  next.activeMs = state.activeMs + Math.max(0, Date.parse(event.at) - Date.parse(state.updatedAt));
  switch (event.type) {
    case 'statement':
      next.statements = [...state.statements, event];
      next.outputTokens = state.outputTokens + event.outputTokens;
      next.failures = recordStep(
        state.failures,
        event.speaker,
        event.model,
        event.degraded === true,
        state.statements.some(
          (item) =>
            item.degraded &&
            item.model === event.model &&
            item.phase === event.phase &&
            item.round === event.round,
        ),
      );
      return next;
    case 'assessment':
      next.assessments = [...state.assessments, event];
      next.outputTokens = state.outputTokens + event.outputTokens;
      // A void judgement made no model call: it neither fails nor clears anyone's streak.
      if (event.attempts === 0 && event.abstained) return next;
      next.failures = recordStep(
        state.failures,
        event.judge,
        event.model,
        event.callFailed === true,
        state.assessments.some(
          (item) =>
            item.callFailed &&
            item.model === event.model &&
            item.phase === event.phase &&
            item.round === event.round,
        ),
      );
      return next;
    case 'artifact':
      next.artifacts = [...state.artifacts, event];
      return next;
    case 'run-end':
      next.end = event;
      return next;
    default:
      return next;
  }
}

export function modelCalls(state: SequenceState<Scenario>): number {
  return [...state.statements, ...state.assessments].reduce((sum, item) => sum + item.attempts, 0);
}

/**
 * A resume is a fresh try after the server was fixed: the failed calls recorded since the last
 * step that succeeded (the ones that ended the run) are planned again. The log keeps them; only
 * the state forgets them, the same way on every replay.
 */
function withoutTrailingFailures<S extends Scenario>(state: SequenceState<S>): SequenceState<S> {
  const succeeded = [
    ...state.statements.filter((item) => !item.degraded),
    ...state.assessments.filter((item) => !item.callFailed),
    ...state.artifacts,
  ];
  const lastGood = succeeded.reduce((max, item) => Math.max(max, item.seq), 0);
  const failedAfter = (item: { seq: number }) => item.seq > lastGood;
  return {
    ...state,
    statements: state.statements.filter((item) => !(item.degraded && failedAfter(item))),
    assessments: state.assessments.filter((item) => !(item.callFailed && failedAfter(item))),
  };
}

/** The failed steps that stand in the record: emergency statements and judges or roles without an answer. */
export function sequenceFailures(state: SequenceState<Scenario>): string[] {
  return [
    ...state.statements
      .filter((item) => item.degraded)
      .map(
        (item) =>
          `${item.phase} ${item.round}: ${item.speaker}'s statement is an emergency response (${item.failureReason ?? 'the model failed'})`,
      ),
    ...state.assessments
      .filter((item) => item.abstained)
      .map(
        (item) =>
          `${item.phase} ${item.round}: ${item.judge} gave no answer (${item.reason ?? 'no usable answer'})`,
      ),
  ];
}
