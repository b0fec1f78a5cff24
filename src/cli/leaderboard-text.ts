/**
 * The leaderboard as text for a terminal of `layout.width` columns. One table asked for
 * (`--table NAME`) comes whole, its note wrapped to the width. The overview of every table keeps to
 * about a screenful: a table with no rows is named in one closing line instead of drawn empty,
 * columns that are zero in every row of a table of counts are left out, and a note is shown only
 * where its first sentence states figures (the full notes are a `--table NAME` away).
 */
import type { LeaderTable } from '../analytics/leader-table.js';
import type { TextLayout } from '../render/text-table.js';
import { fitLines } from '../render/wrap-text.js';
import { renderTable } from './table-output.js';

/** A table with the name `--table` knows it by. */
export interface NamedTable {
  name: string;
  table: LeaderTable;
}

/** Tables of counts, where a column of zeros says nothing (the reliability report's kinds of failure). */
const COUNTS_TABLES = new Set(['reliability']);

/** Tables whose note begins with figures of their own (agreement statistics, how claims were mapped). */
const OVERVIEW_NOTES = new Set(['judges', 'arguments']);

/** A note's summary: its first sentence, and the next one too when the first is a mere heading. */
export function firstSentences(note: string): string {
  const sentences = note.trim().split(/(?<=[.!?])\s+(?=[A-Z"`(])/);
  const [first = '', second] = sentences;
  if (first.length < 40 && second !== undefined && first.length + second.length <= 240) {
    return `${first} ${second}`;
  }
  return first;
}

/** The table without the columns (after the first two) whose every row is zero. */
function withoutZeroColumns(table: LeaderTable): { table: LeaderTable; left: string[] } {
  const zero = table.columns.map(
    (_, at) => at >= 2 && table.rows.length > 0 && table.rows.every((row) => Number(row[at] ?? 0) === 0),
  );
  return {
    table: {
      ...table,
      columns: table.columns.filter((_, at) => !zero[at]),
      rows: table.rows.map((row) => row.filter((_, at) => !zero[at])),
    },
    left: table.columns.filter((_, at) => zero[at]),
  };
}

/** Columns that give way, first listed first, before a table's rows would be stacked. */
const LEAVE_OUT = ['95% interval', 'Rotations caused (X)'];

function drawn(table: LeaderTable, layout: TextLayout): string {
  return renderTable(table.columns, table.rows, 'table', layout, {
    keepNames: table.columns.slice(0, 1),
    leaveOut: LEAVE_OUT.filter((title) => table.columns.includes(title)),
  });
}

/** One table, whole: title, rows and its full note wrapped to the width. */
export function oneTableText(table: LeaderTable, layout: TextLayout): string {
  return `\n${table.title}\n${drawn(table, layout)}${table.note ? `${fitLines(table.note, layout.width)}\n` : ''}`;
}

/** Every table with rows, each with the first sentence of its note; then what had nothing to show. */
export function overviewText(tables: readonly NamedTable[], layout: TextLayout): string {
  const parts: string[] = [];
  const empty: string[] = [];
  for (const { name, table: whole } of tables) {
    if (whole.rows.length === 0) {
      empty.push(name);
      continue;
    }
    const { table, left } = COUNTS_TABLES.has(name)
      ? withoutZeroColumns(whole)
      : { table: whole, left: [] as string[] };
    const zeros = left.length > 0 ? ` Zero in every row, not shown: ${left.join(', ')}.` : '';
    // The overview gives only the notes that state figures the rows do not hold.
    const figures = OVERVIEW_NOTES.has(name) && table.note ? firstSentences(table.note) : '';
    const note = `${figures}${zeros}`.trim();
    parts.push(`\n${table.title}\n${drawn(table, layout)}${note ? `${fitLines(note, layout.width)}\n` : ''}`);
  }
  const closing = [
    empty.length > 0 ? `Nothing to show yet: ${empty.join(', ')}.` : '',
    'Each table in full, with its notes: leaderboard --table NAME.',
  ]
    .filter((line) => line !== '')
    .join(' ');
  return `${parts.join('')}\n${fitLines(closing, layout.width)}\n`;
}
