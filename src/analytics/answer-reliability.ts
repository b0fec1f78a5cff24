/**
 * The judge reliability report: per model and per kind of structured answer, how many answers were
 * asked for, how many came back unusable and why (cut off at the cap, no JSON, fields missing or
 * wrong), how many were repaired by the second try, how many calls ended without an answer, how
 * many answers contradicted themselves (a vote against the judge's own scores, a winner against its
 * own totals), how many extracted claims were not in the statement they came from, and how many
 * numbers were outside their bounds and held to them, and how many claims were kept though their
 * quote differed from the statement by one word.
 */
import type { RunIndex } from '../store/run-index.js';
import type { LeaderTable } from './leader-table.js';

type Cell = string | number | null;

export function reliabilityTable(index: RunIndex, runsIn: string, params: Cell[]): LeaderTable {
  const result = index.query(
    `SELECT model, kind, COUNT(*) AS asked, SUM(unusable) AS unusable, SUM(cut_at_cap) AS cut,
       SUM(not_json) AS not_json, SUM(wrong_fields) AS wrong, SUM(CASE WHEN unusable > 0 AND gave_up = 0 AND call_failed = 0 THEN 1 ELSE 0 END) AS repaired,
       SUM(gave_up) AS gave_up, SUM(call_failed) AS call_failed, SUM(contradictions) AS contradictions, SUM(unverified) AS unverified,
       SUM(clamped) AS clamped, SUM(COALESCE(near_matched, 0)) AS near_matched
     FROM answer_checks WHERE run_id IN ${runsIn} AND model IS NOT NULL GROUP BY model, kind ORDER BY model, kind`,
    params,
  );
  return {
    title: 'Judge reliability',
    columns: [
      'Model',
      'Answer kind',
      'Asked',
      'Unusable',
      'Cut at cap',
      'No JSON',
      'Wrong fields',
      'Repaired',
      'No answer',
      'Call failed',
      'Contradictions',
      'Claims not in statement',
      'Numbers clamped',
      'Claims near-matched',
    ],
    rows: result.rows.map((row) => row.map((cell) => cell ?? 0)),
    note: 'Per structured answer asked of a model. Unusable: answers that could not be read (each try counts); Repaired: asked again and then usable; No answer: still unusable after the repair (the judge abstained, the role failed, the extraction fell back to key sentences); Contradictions: a knockout vote against the judge’s own scores, or a formal winner against the judge’s own totals; Claims not in statement: extracted claims dropped because the statement does not say them; Numbers clamped: numbers outside their schema’s bounds (a confidence below 0, a score above 5), held to the bound and the answer used; Claims near-matched: claims kept whose quote differs from the statement’s sentence by one word (changed, left out or added), case and punctuation aside.',
  };
}
