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
  failureStreak: number;
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
      failureStreak: 0,
    };
  }
  if (!state) throw new Error(`event ${event.seq} (${event.type}) comes before run-start`);
  const next: SequenceState<S> = { ...state, updatedAt: event.at };
  if (event.type === 'run-resume') return { ...next, end: null, failureStreak: 0 };
  next.activeMs = state.activeMs + Math.max(0, Date.parse(event.at) - Date.parse(state.updatedAt));
  switch (event.type) {
    case 'statement':
      next.statements = [...state.statements, event];
      next.outputTokens = state.outputTokens + event.outputTokens;
      next.failureStreak = event.degraded ? state.failureStreak + 1 : 0;
      return next;
    case 'assessment':
      next.assessments = [...state.assessments, event];
      next.outputTokens = state.outputTokens + event.outputTokens;
      next.failureStreak = event.callFailed ? state.failureStreak + 1 : 0;
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
