/** Tables as text, JSON or CSV: every table the CLI prints can be had in all three. */
import Table from 'cli-table3';

export type TableFormat = 'table' | 'json' | 'csv';
type Cell = string | number | null | undefined;

function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function renderTable(columns: string[], rows: Cell[][], format: TableFormat): string {
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
  const table = new Table({ head: columns, style: { head: [], border: [] } });
  for (const row of rows)
    table.push(row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))));
  return `${table.toString()}\n`;
}
