/**
 * The three tables of a truth run's results, as headers and rows: accuracy per condition, the
 * paired differences and persuasiveness. The report prints them as text and the viewer as HTML,
 * from these same cells.
 */
import { differenceText, percentWithInterval } from '../../analytics/truth-accuracy.js';
import type { TruthSummary } from './truth-results.js';

export interface TruthTable {
  headers: string[];
  rows: Array<Array<string | number>>;
}

export function accuracyTable(summary: TruthSummary): TruthTable {
  return {
    headers: ['Condition', 'Right', 'Judged', 'Accuracy (95% interval)', 'No verdict'],
    rows: summary.conditions.map((row) => [
      row.condition,
      row.accuracy?.correct ?? 0,
      row.accuracy?.n ?? 0,
      percentWithInterval(row.accuracy),
      row.noVerdict,
    ]),
  };
}

export function differencesTable(summary: TruthSummary): TruthTable {
  return {
    headers: ['Comparison', 'Questions', 'Only first right', 'Only second right', 'Difference'],
    rows: summary.differences.map((row) => [
      `${row.first} − ${row.second}`,
      row.difference?.n ?? 0,
      row.difference?.firstOnly ?? 0,
      row.difference?.secondOnly ?? 0,
      differenceText(row.difference),
    ]),
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
