/** Tables as text, JSON or CSV: every table the CLI prints can be had in all three. */
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
    return `${JSON.stringify(
      rows.map((row) => Object.fromEntries(columns.map((column, index) => [column, row[index] ?? null]))),
      null,
      2,
    )}\n`;
  }
  if (format === 'csv') {
    return `${[columns, ...rows].map((row) => row.map((cell) => csvCell(cell)).join(',')).join('\n')}\n`;
  }
  return `${renderTextTable(columns, rows, layout, options)}\n`;
}
