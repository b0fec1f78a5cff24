/**
 * A truth run's results on its page, as `agora show` prints them: accuracy per condition with its
 * 95% interval, the paired differences, persuasiveness, and each question with the judge's answer
 * under each condition. Every table stacks into "label: value" lines on a phone.
 */
import type { ConditionVerdict, QuestionResult, TruthSummary } from '../formats/truth/truth-results.js';
import {
  accuracyTable,
  differencesTable,
  persuasivenessTable,
  sharesPassages,
  type TruthTable,
} from '../formats/truth/truth-tables.js';
import { html, type SafeHtml } from './html.js';

/** What of a truth run's transcript.json the page reads. */
export interface TruthResults {
  conditions: string[];
  questions: QuestionResult[];
  summary: TruthSummary;
}

export function isTruthResults(transcript: unknown): transcript is TruthResults {
  const record = transcript as Partial<TruthResults> | null;
  return (
    Array.isArray(record?.conditions) &&
    Array.isArray(record?.questions) &&
    Array.isArray(record?.summary?.conditions)
  );
}

type Cell = string | number | SafeHtml;

/** A table whose cells name their column, so that a phone shows each row as a block of lines. */
function stackTable(className: string, columns: string[], rows: Cell[][]): SafeHtml {
  return html`<table class="stack ${className}"><thead><tr>${columns.map((column) => html`<th>${column}</th>`)}</tr></thead><tbody>
${rows.map((row) => html`<tr>${row.map((cell, at) => html`<td data-label="${columns[at] ?? ''}">${cell}</td>`)}</tr>`)}
</tbody></table>`;
}

/** The judge's answer under one condition, as `show` words it: "right (80%)", "WRONG (60%)", "no verdict". */
function verdictCell(verdict: ConditionVerdict | undefined): Cell {
  if (!verdict || verdict.believed === null) {
    return verdict?.noVerdict ? html`<span title="${verdict.noVerdict}">no verdict</span>` : '—';
  }
  const confidence = `${verdict.confidence ?? '?'}%`;
  if (verdict.correct === true) return html`<span class="truth-right">right</span> (${confidence})`;
  if (verdict.correct === false)
    return html`<span class="truth-wrong">WRONG</span> (${confidence}) <br><span class="muted">believed ${verdict.believed}</span>`;
  return '—';
}

export function truthResultsHtml(results: TruthResults): SafeHtml {
  const { summary, conditions, questions } = results;
  const table = (id: string, { headers, rows }: TruthTable) => stackTable(id, headers, rows);
  const accuracy = table('truth-accuracy', accuracyTable(summary));
  const differences =
    summary.differences.length === 0
      ? ''
      : html`<h3>Paired differences</h3>
<p class="notes">Same questions; the first condition's accuracy minus the second's, in percentage points, with a 95% interval (${sharesPassages(summary.differences) ? 'a bootstrap over passages, as questions about one passage are not independent' : 'Newcombe'}).</p>
${table('truth-differences', differencesTable(summary.differences))}`;
  const persuasiveness =
    summary.persuasiveness.length === 0
      ? ''
      : html`<h3>Persuasiveness</h3>
<p class="notes">Readings a debater model won while arguing the wrong answer.</p>
${table('truth-persuasiveness', persuasivenessTable(summary))}`;
  const perQuestion = stackTable(
    'truth-questions',
    ['Question', 'Right answer', ...conditions],
    questions.map((question) => [
      html`<strong>${question.number}</strong> <span class="muted">${question.question}</span>`,
      question.answer,
      // Each reading of the condition (the drawn order of the answers, then the other), as `show` gives them.
      ...conditions.map((condition) => {
        const readings = question.verdicts.filter((verdict) => verdict.condition === condition);
        if (readings.length === 0) return '—';
        return html`${readings.map((verdict, at) => html`${at > 0 ? ' / ' : ''}${verdictCell(verdict)}`)}`;
      }),
    ]),
  );
  return html`<div class="truth-results">
<h3>Accuracy per condition</h3>
<p class="notes">The judge reads each question twice, once with each answer first. Right readings over judged readings, with a 95% Wilson interval on the questions judged; “Order flips”: questions whose two readings chose different answers; a reading the judge could not answer counts under “No verdict”.</p>
${accuracy}
${differences}
${persuasiveness}
<h3>Each question</h3>
${perQuestion}
</div>`;
}
