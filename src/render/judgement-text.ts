/**
 * What a judge decided, in words a spectator reads: who took a duel round, who won a formal debate
 * and by what weighted scores, what each council role said. Shared by the terminal and the viewer,
 * so both tell the same story from the same event.
 */

import { formalSides } from '../config/formal-sides.js';
import type { Scenario } from '../config/scenario.js';
import type { AssessmentEvent } from '../core/events.js';
import { renderTextTable } from './text-table.js';

type Result = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** "Round 2 to Ada (For)", "Round 2 even": a duel Judge's call on one round. */
export function duelRoundText(scenario: Scenario | undefined, round: number, result: Result): string {
  const side = result.stronger;
  if (side !== 'a' && side !== 'b') return `Round ${round} even`;
  if (scenario?.format !== 'duel') return `Round ${round} to side ${side.toUpperCase()}`;
  return `Round ${round} to ${scenario.debaters[side].name} (${scenario.positions[side]})`;
}

/** "Blaise (affirmative, Ban cars) wins; weighted scores: affirmative 2.40, negative 3.40". */
export function formalVerdictText(scenario: Scenario | undefined, result: Result): string {
  // A truth verdict names the answer the judge believes.
  if (typeof result.answer === 'string' && typeof result.confidence === 'number')
    return `believes Answer ${result.answer}, confidence ${result.confidence}%`;
  const winner = result.winner;
  const totals = result.totals as Record<string, unknown> | undefined;
  const score = (side: string) =>
    typeof totals?.[side] === 'number' ? (totals[side] as number).toFixed(2) : '–';
  // Side swap records a verdict whose two orders disagreed as a tie.
  if (winner === 'tie')
    return `a tie; weighted scores: affirmative ${score('affirmative')}, negative ${score('negative')}`;
  if (winner !== 'affirmative' && winner !== 'negative') return 'no winner given';
  let who: string = winner;
  if (scenario?.format === 'formal' && scenario.debaters?.length === 2) {
    who = `${formalSides(scenario)[winner].name} (${winner}, ${scenario.positions[winner]})`;
  }
  return `${who} wins; weighted scores: affirmative ${score('affirmative')}, negative ${score('negative')}`;
}

/** The headline of a council role's answer: its claim, its challenges (naming their targets) or its revision. */
export function councilAnswerText(event: AssessmentEvent): string {
  const result = event.result ?? {};
  if (event.phase === 'round-2') {
    const challenges = Array.isArray(result.challenges) ? (result.challenges as Result[]) : [];
    const listed = challenges.map((item) => `${text(item.target_role)}: ${text(item.challenge)}`);
    return listed.length > 0 ? listed.join(' | ') : text(result.claim);
  }
  if (event.phase === 'round-3') return text(result.revision) || text(result.claim);
  return text(result.claim);
}

/** "conditional, confidence 0.62": a council role's stance, when its round asks for one. */
export function councilStanceText(result: Result): string {
  const parts = [
    text(result.stance),
    typeof result.confidence === 'number' ? `confidence ${result.confidence.toFixed(2)}` : '',
  ].filter((part) => part !== '');
  return parts.join(', ');
}

/** A formal verdict's scores: one row per criterion, with its weight and each side's score. */
export interface CriteriaRow {
  criterion: string;
  weight: number | null;
  affirmative: number | null;
  negative: number | null;
}

/** A duel judgement or a formal verdict as a person would write it up. */
export interface JudgementReading {
  /** "Round 3 to Ada (For)", "Blaise (affirmative, Ban cars) wins; weighted scores: …". */
  headline: string;
  /** Why, in the judge's words. */
  why: string;
  /** The judge's neutral summary of what was said. */
  summary: string;
  /** A verdict's criteria, empty for a duel round. */
  criteria: CriteriaRow[];
  /** The weighted totals of a verdict, null for a duel round. */
  totals: { affirmative: number | null; negative: number | null } | null;
  /** The side-swap check in one line, empty when the judge was asked once. */
  sideSwap: string;
  /** Where the judge contradicted itself, in words. */
  warnings: string[];
}

const numberOr = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const record = (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Result) : {};

/**
 * The side-swap check in one line: "read in both orders: agreed", or what the two readings said
 * and what that made of the round ("so the round is even") or the verdict ("so it is a tie").
 */
export function sideSwapText(result: Result, phase: 'judgement' | 'verdict'): string {
  const swap = result.side_swap as { picks?: unknown[]; agreed?: boolean | null } | undefined;
  if (!swap || typeof swap !== 'object') return '';
  if (swap.agreed === true) return 'read in both orders: agreed';
  if (swap.agreed === null)
    return 'read in both orders, but only one reading was usable: it stands unchecked';
  const picks = (swap.picks ?? []).map((pick) =>
    phase === 'judgement' && typeof pick === 'string' && pick !== 'even' ? pick.toUpperCase() : String(pick),
  );
  const which = picks.length === 2 ? ` (${picks[0]}, then ${picks[1]})` : '';
  return phase === 'judgement'
    ? `the two readings disagreed${which}, so the round is even`
    : `the two readings disagreed${which}, so the verdict is a tie`;
}

/** A duel judgement or a formal verdict, read: headline, reasons, criteria, side-swap check, warnings. */
export function readJudgement(
  scenario: Scenario | undefined,
  event: AssessmentEvent,
): JudgementReading | null {
  const result = event.result;
  if (!result || (event.phase !== 'judgement' && event.phase !== 'verdict')) return null;
  if (event.phase === 'judgement') {
    return {
      headline: duelRoundText(scenario, event.round, result),
      why: text(result.why),
      summary: text(result.summary),
      criteria: [],
      totals: null,
      sideSwap: sideSwapText(result, 'judgement'),
      warnings: [],
    };
  }
  const affirmative = record(result.affirmative);
  const negative = record(result.negative);
  const weights = scenario?.format === 'formal' ? scenario.verdict.criteria : undefined;
  const names = [
    ...new Set([...Object.keys(weights ?? {}), ...Object.keys(affirmative), ...Object.keys(negative)]),
  ];
  const criteria = names
    .map((criterion) => ({
      criterion: criterion.replace(/_/g, ' '),
      weight: numberOr(weights?.[criterion]?.weight),
      affirmative: numberOr(affirmative[criterion]),
      negative: numberOr(negative[criterion]),
    }))
    .filter((row) => row.affirmative !== null || row.negative !== null);
  const totals = record(result.totals);
  const warnings =
    result.winner_contradicts_scores === true
      ? [
          `The judge named ${String(result.named_winner)} the winner, but its own weighted scores favour ${String(result.winner)}; the scores decide.`,
        ]
      : [];
  return {
    headline: formalVerdictText(scenario, result),
    why: text(result.reasons),
    summary: text(result.summary),
    criteria,
    totals: { affirmative: numberOr(totals.affirmative), negative: numberOr(totals.negative) },
    sideSwap: sideSwapText(result, 'verdict'),
    warnings,
  };
}

/** "⚠ against its own scores (…)": a knockout vote that contradicts the judge's weighted total. */
export function voteContradictionText(evaluation: {
  continue_vote: boolean;
  inconsistent?: boolean;
}): string {
  if (!evaluation.inconsistent) return '';
  return `against its own scores (${evaluation.continue_vote ? 'keeps the debater with a total under 3' : 'replaces the debater with a total over 3'})`;
}

const score = (value: number | null, digits = 0) => (value === null ? '–' : value.toFixed(digits));

/** A verdict's criteria as a small plain table for the terminal, the weighted totals in its last row. */
export function criteriaTableText(reading: JudgementReading): string {
  if (reading.criteria.length === 0) return '';
  const rows = reading.criteria.map((row) => [
    row.criterion,
    row.weight === null ? '–' : row.weight.toFixed(2),
    score(row.affirmative),
    score(row.negative),
  ]);
  if (reading.totals) {
    rows.push([
      'weighted total',
      '',
      score(reading.totals.affirmative, 2),
      score(reading.totals.negative, 2),
    ]);
  }
  return renderTextTable(['Criterion', 'Weight', 'Affirmative', 'Negative'], rows, {
    width: 80,
    borders: false,
  });
}

/** The first letter in capitals: a line of its own reads as a sentence. */
export const sentence = (line: string) => (line === '' ? '' : `${line[0]?.toUpperCase()}${line.slice(1)}.`);
