/**
 * One row per structured answer asked of a model (a knockout evaluation, a duel judgement, a formal
 * verdict, a truth verdict, a critique synthesis, a council position or decision, a claims
 * extraction): how many of its answers were unusable and why, whether it ended without one, and
 * whether the answer it gave contradicted itself, how many of its numbers were outside their
 * bounds and held to them, and for a claims extraction how many quotes matched nothing in the
 * statement and how many only nearly.
 * The leaderboard's judge reliability report is read from these rows.
 */
import type { FormatName } from '../config/scenario-schema.js';
import type { AnswerProblem, RunEvent } from '../core/events.js';
import type { Row } from './index-row.js';

const KINDS: Record<string, string> = {
  judgement: 'duel judgement',
  verdict: 'formal verdict',
  synthesis: 'critique synthesis',
  'round-1': 'council position',
  'round-2': 'council position',
  'round-3': 'council position',
  decision: 'council decision',
};

/** The kind of an assessment: a truth run's judge answers a question, it does not judge a formal debate. */
function assessmentKind(phase: string, format: FormatName | undefined): string {
  if (format === 'truth' && phase === 'verdict') return 'truth verdict';
  return KINDS[phase] ?? phase;
}

function counts(problems: readonly AnswerProblem[] | undefined) {
  const list = problems ?? [];
  const of = (cause: AnswerProblem['cause']) => list.filter((problem) => problem.cause === cause).length;
  return {
    unusable: list.length,
    cut_at_cap: of('cut-at-cap'),
    not_json: of('not-json'),
    wrong_fields: of('schema'),
  };
}

/** The row of `event` (in a run of `format`) when it records a structured answer; null for any other event. */
export function answerCheckRow(runId: string, event: RunEvent, format?: FormatName): Row | null {
  const base = { run_id: runId, seq: event.seq };
  switch (event.type) {
    case 'vote-cast':
      return {
        ...base,
        kind: 'knockout evaluation',
        agent: event.judge,
        model: event.model,
        ...counts(event.problems),
        gave_up: event.evaluation === null && !event.callFailed ? 1 : 0,
        call_failed: event.callFailed ? 1 : 0,
        contradictions: event.evaluation?.inconsistent ? 1 : 0,
        unverified: 0,
        clamped: event.clamped?.length ?? 0,
        near_matched: 0,
      };
    case 'assessment': {
      // A void round was never asked.
      if (event.attempts === 0) return null;
      const result = event.result ?? {};
      return {
        ...base,
        kind: assessmentKind(event.phase, format),
        agent: event.judge,
        model: event.model,
        ...counts(event.problems),
        gave_up: event.result === null && !event.callFailed ? 1 : 0,
        call_failed: event.callFailed ? 1 : 0,
        contradictions: result.winner_contradicts_scores === true ? 1 : 0,
        unverified: 0,
        clamped: event.clamped?.length ?? 0,
        near_matched: 0,
      };
    }
    case 'claims':
      if (event.attempts === 0) return null;
      return {
        ...base,
        kind: 'claims extraction',
        agent: event.agent,
        model: event.model ?? null,
        ...counts(event.problems),
        gave_up: event.source !== 'model' && !/call failed/.test(event.reason ?? '') ? 1 : 0,
        call_failed: /call failed/.test(event.reason ?? '') ? 1 : 0,
        contradictions: 0,
        unverified: event.unverified ?? 0,
        clamped: 0,
        near_matched: event.nearMatched ?? 0,
      };
    default:
      return null;
  }
}
