/** Tables as text, JSON or CSV: every table the CLI prints can be had in all three. */
import { printable, safeJson } from '../render/terminal-safe.js';
import { renderTextTable, type TableOptions, type TextLayout } from '../render/text-table.js';

export type TableFormat = 'table' | 'json' | 'csv';
type Cell = string | number | null | undefined;

function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * `layout` fits a text table to the stream it goes to (see terminal-layout.ts: borders only on a
 * terminal); JSON and CSV ignore it.
 */
export function renderTable(
  columns: string[],
  rows: Cell[][],
  format: TableFormat,
  layout: TextLayout,
  options: TableOptions = {},
): string {
  if (format === 'json') {
    return `${safeJson(
      rows.map((row) => Object.fromEntries(columns.map((column, index) => [column, row[index] ?? null]))),
      2,
    )}\n`;
  }
  // Cells hold model and scenario text: printed without the escape sequences it may hold.
  const shown = rows.map((row) => row.map((cell) => (typeof cell === 'string' ? printable(cell) : cell)));
  const head = columns.map(printable);
  if (format === 'csv') {
    return `${[head, ...shown].map((row) => row.map((cell) => csvCell(cell)).join(',')).join('\n')}\n`;
  }
  return `${renderTextTable(head, shown, layout, options)}\n`;
}
