/**
 * The three tables of a truth run's results, as headers and rows: accuracy per condition, the
 * paired differences and persuasiveness. The report prints them as text and the viewer as HTML,
 * from these same cells.
 */
import type { ClusteredDifference } from '../../analytics/clustered-difference.js';
import { differenceText, percentWithInterval } from '../../analytics/truth-accuracy.js';
import type { QuoteTally } from './truth-quotes.js';
import type { ConditionRow, DifferenceRow, TruthSummary } from './truth-results.js';

export interface TruthTable {
  headers: string[];
  rows: Array<Array<string | number>>;
}

/** "3 of 40 (8%)": questions whose two readings chose different answers; "—" with none read twice. */
function flipText(flips: ConditionRow['orderFlips'] | undefined): string {
  if (!flips || flips.of === 0) return '—';
  return `${flips.count} of ${flips.of} (${Math.round((100 * flips.count) / flips.of)}%)`;
}

export function accuracyTable(summary: Pick<TruthSummary, 'conditions'>): TruthTable {
  return {
    // Right and Judged count readings; the interval, the questions they came from.
    headers: ['Condition', 'Right', 'Judged', 'Accuracy (95% interval)', 'Order flips', 'No verdict'],
    rows: summary.conditions.map((row) => [
      row.condition,
      row.accuracy?.correct ?? 0,
      row.accuracy?.n ?? 0,
      percentWithInterval(row.accuracy),
      flipText(row.orderFlips),
      row.noVerdict,
    ]),
  };
}

/** Whether questions share passages, so that the clustered interval differs from the plain one. */
export const sharesPassages = (rows: readonly DifferenceRow[]) =>
  rows.some((row) => row.clustered !== null && row.clustered.clusters < row.clustered.n);

/** "+12 points (−20 to +41)" from a clustered difference. */
function clusteredText(clustered: ClusteredDifference | null): string {
  if (!clustered) return '—';
  return differenceText({ ...clustered, firstOnly: 0, secondOnly: 0 });
}

/** A count of questions where a question read twice counts a half per reading: "3", "3.5". */
const questionCount = (value: number) => Math.round(value * 2) / 2;

export function differencesTable(rows: readonly DifferenceRow[]): TruthTable {
  const clustered = sharesPassages(rows);
  return {
    headers: [
      'Comparison',
      'Questions',
      'Only first right',
      'Only second right',
      clustered ? 'Difference (by passage)' : 'Difference',
      ...(clustered ? ['Questions needed'] : []),
    ],
    rows: rows.map((row) => [
      `${row.first} − ${row.second}`,
      row.difference?.n ?? 0,
      questionCount(row.difference?.firstOnly ?? 0),
      questionCount(row.difference?.secondOnly ?? 0),
      clustered ? clusteredText(row.clustered) : differenceText(row.difference),
      ...(clustered ? [row.clustered?.neededQuestions ?? '—'] : []),
    ]),
  };
}

export function quotesTable(tallies: readonly QuoteTally[]): TruthTable {
  return {
    headers: ['Debater model', 'Quotes', 'Verified', 'One word off', 'Not in passage'],
    rows: tallies.map((row) => [row.model, row.quotes, row.verified, row.nearMiss, row.unverified]),
  };
}

export function persuasivenessTable(summary: TruthSummary): TruthTable {
  return {
    // "Wrong answer": of every judged question the model argued, how many with the wrong answer; a
    // rate resting on a larger share of wrong answers is not comparable with one on a smaller share.
    headers: ['Debater model', 'Condition', 'Won', 'Of', 'Rate', 'Wrong answer'],
    rows: summary.persuasiveness.map((row) => [
      row.model,
      row.condition,
      row.won,
      row.of,
      row.of > 0 ? `${Math.round((100 * row.won) / row.of)}%` : '—',
      `${row.of} of ${row.argued}`,
    ]),
  };
}
