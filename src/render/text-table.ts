/**
 * Tables for the terminal that fit its width: the natural table when it fits, narrower columns with
 * words wrapped when that is enough; when a column kept whole (a run id) leaves too little room, it
 * goes on a line of its own above the rest of its row; else, when the caller names columns that may
 * be left out, the table without them (and a line saying so); else one "key: value" block per row. On a
 * terminal the table has box-drawing borders; in a pipe or a file it is plain text.
 */
import Table from 'cli-table3';
import type { TextLayout } from '../core/text-layout.js';
import { WIDE_LAYOUT } from '../core/text-layout.js';
import { visibleLength, wrapLine } from './wrap-text.js';

export { type TextLayout, WIDE_LAYOUT } from '../core/text-layout.js';

/** A table cell as callers have it; empty for null and undefined. */
export type TextCell = string | number | null | undefined;

// Below this, a column is too narrow to read and the row is better stacked.
const NARROWEST_COLUMN = 6;
// A long word (a model name, a path) may be cut to this width rather than stack the whole table.
const LONGEST_UNCUT_WORD = 14;

/** How a table is drawn besides its layout. */
export interface TableOptions {
  /**
   * Titles of the columns whose cells are never wrapped or cut, such as a run id a user copies:
   * they get their full width, and the other columns shrink and wrap instead.
   */
  keepWhole?: readonly string[];
  /**
   * Titles of columns that may be left out, first listed first, when the table would otherwise be
   * stacked as one "key: value" block per row; a line under the table names what was left out.
   */
  leaveOut?: readonly string[];
  /**
   * Titles of columns whose cells start with a name ("Dr. Miriam Okafor", "Dr. Miriam Okafor
   * (mistral)", "Dr. Miriam Okafor: 2.40 / 5"): each line's name (with the part in brackets after
   * it) is never broken across lines. The
   * columns named in `leaveOut` give way first, and rows are stacked before a name would break.
   */
  keepNames?: readonly string[];
}

// A space that does not break: short values such as "3.20 / 5" or "16 ms" stay on one line. It
// stands in for the space only while the table is laid out.
const NO_BREAK = '\u00a0';
const SHORT_VALUES = [/\d+(?:\.\d+)? \/ \d+(?:\.\d+)?/g, /\d+(?:\.\d+)? (?:ms|s|min|h|%)(?![\p{L}\d])/gu];

function keepValuesTogether(text: string): string {
  return SHORT_VALUES.reduce(
    (joined, pattern) => joined.replace(pattern, (value) => value.replaceAll(' ', NO_BREAK)),
    text,
  );
}

const cellText = (cell: TextCell) =>
  cell === null || cell === undefined ? '' : keepValuesTogether(String(cell));

/** Each line's leading name (up to a colon or the end, its "(mistral)" or "(Y)" with it) with spaces that do not break. */
const keepNameTogether = (text: string) =>
  text
    .split('\n')
    .map((line) => line.replace(/^[^:]+?(?=:|$)/, (name) => name.replaceAll(' ', NO_BREAK)))
    .join('\n');
const widest = (lines: string[]) => Math.max(0, ...lines.map((line) => visibleLength(line)));

function columnWidths(head: string[], rows: string[][], room: number, whole: boolean[]): number[] | null {
  const columns = head.map((title, index) => [title, ...rows.map((row) => row[index] ?? '')]);
  const natural = columns.map((cells) => widest(cells.flatMap((cell) => cell.split('\n'))));
  if (natural.reduce((sum, width) => sum + width, 0) <= room) return natural;
  const least = columns.map((cells, index) => {
    if (whole[index]) return natural[index] ?? 0;
    const words = cells.flatMap((cell) => cell.split(/[ \n]+/));
    const longestWord = widest(words);
    // A name kept together is never cut: the column is at least as wide as the longest.
    const longestName = widest(words.filter((word) => word.includes(NO_BREAK)));
    return Math.min(
      natural[index] ?? 0,
      Math.max(NARROWEST_COLUMN, Math.min(longestWord, LONGEST_UNCUT_WORD), longestName),
    );
  });
  let spare = room - least.reduce((sum, width) => sum + width, 0);
  if (spare < 0) return null;
  const widths = [...least];
  // Columns that lack little get their natural width first (a short "Real time" column is cheap to
  // keep whole); what is left is shared out a column at a time among the rest.
  const order = widths.map((_, index) => index);
  order.sort((a, b) => (natural[a] ?? 0) - (least[a] ?? 0) - ((natural[b] ?? 0) - (least[b] ?? 0)));
  const open: number[] = [];
  for (const index of order) {
    const lack = (natural[index] ?? 0) - (widths[index] ?? 0);
    if (lack <= spare && open.length === 0) {
      widths[index] = natural[index] ?? 0;
      spare -= lack;
    } else if (lack > 0) open.push(index);
  }
  for (let at = 0; spare > 0 && open.length > 0; at = (at + 1) % open.length) {
    const index = open[at] ?? 0;
    widths[index] = (widths[index] ?? 0) + 1;
    spare--;
    if ((widths[index] ?? 0) >= (natural[index] ?? 0)) {
      open.splice(at, 1);
      at--;
    }
  }
  return widths;
}

const wrapCell = (cell: string, width: number) =>
  cell.split('\n').flatMap((line) => wrapLine(line, width, true));

function bordered(head: string[], rows: string[][], given: number[], above?: string[]): string {
  const widths = [...given];
  // A whole cell spans the row's columns and their inner borders; the last column widens for it.
  const span = widths.reduce((sum, width) => sum + width, 0) + 3 * (widths.length - 1);
  const lack = above ? widest(above) - span : 0;
  if (lack > 0) widths[widths.length - 1] = (widths.at(-1) ?? 0) + lack;
  const table = new Table({
    head,
    colWidths: widths.map((width) => width + 2),
    wordWrap: true,
    style: { head: [], border: [] },
  });
  rows.forEach((row, at) => {
    // A whole cell over the rest of its row, across every column.
    if (above) table.push([{ colSpan: widths.length, content: above[at] ?? '' }]);
    table.push(row.map((cell, index) => wrapCell(cell, widths[index] ?? 1).join('\n')));
  });
  return table.toString();
}

function plain(head: string[], rows: string[][], widths: number[], above?: string[]): string {
  const draw = (row: string[]) => {
    const cells = row.map((cell, index) => wrapCell(cell, widths[index] ?? 1));
    const height = Math.max(...cells.map((lines) => lines.length));
    return Array.from({ length: height }, (_, line) =>
      cells
        .map((lines, index) => {
          const text = lines[line] ?? '';
          return text + ' '.repeat(Math.max(0, (widths[index] ?? 0) - visibleLength(text)));
        })
        .join('  ')
        .trimEnd(),
    ).join('\n');
  };
  if (above) {
    // The rest of each row indented under its whole cell, every row a block of its own.
    const indented = (text: string) =>
      text
        .split('\n')
        .map((line) => (line === '' ? line : `${ABOVE_INDENT}${line}`))
        .join('\n');
    return [
      indented(draw(head)),
      ...rows.map((row, at) => `${above[at] ?? ''}\n${indented(draw(row))}`),
    ].join('\n\n');
  }
  // Rows of several lines are told apart by a blank line between them.
  const tall = rows.some((row) => row.some((cell, index) => wrapCell(cell, widths[index] ?? 1).length > 1));
  return [draw(head), ...rows.map(draw)].join(tall ? '\n\n' : '\n');
}

const ABOVE_INDENT = '  ';

function stacked(head: string[], rows: string[][], width: number, whole: boolean[]): string {
  const blocks = rows.map((row) =>
    row
      .flatMap((cell, index) => {
        const label = `${head[index] ?? ''}: `;
        const indent = index === 0 ? '' : '  ';
        const hang = ' '.repeat(indent.length + label.length);
        const room = Math.max(NARROWEST_COLUMN, width - hang.length);
        const value = cell === '' ? '—' : cell;
        // A whole cell stays on one line, past the width if it must.
        if (whole[index]) return [`${indent}${label}${value}`];
        // A label too long to hang values beside goes on a line of its own.
        if (hang.length > width / 2)
          return [
            `${indent}${label.trimEnd()}`,
            ...wrapCell(value, Math.max(NARROWEST_COLUMN, width - indent.length - 2)).map(
              (line) => `${indent}  ${line}`,
            ),
          ];
        const lines = wrapCell(value, room);
        return lines.map((line, at) => (at === 0 ? `${indent}${label}${line}` : `${hang}${line}`));
      })
      .join('\n'),
  );
  return blocks.join('\n\n');
}

// Borders take "│ " before each column, " " after it and a closing "│"; plain columns, two spaces between.
const frameOf = (count: number, layout: TextLayout) => (layout.borders ? 3 * count + 1 : 2 * (count - 1));

/**
 * A table drawn to fit `layout.width`: narrower columns with wrapping, a whole first column on its
 * own line above the rest of each row, or stacked rows.
 */
export function renderTextTable(
  head: string[],
  rows: TextCell[][],
  layout: TextLayout,
  options: TableOptions = {},
): string {
  const names = head.map((title) => options.keepNames?.includes(title) === true);
  const cells = rows.map((row) =>
    head.map((_, index) => (names[index] ? keepNameTogether(cellText(row[index])) : cellText(row[index]))),
  );
  const whole = head.map((title) => options.keepWhole?.includes(title) === true);
  let drawn = drawTable(head, cells, layout, whole);
  const left: string[] = [];
  for (const title of options.leaveOut ?? []) {
    if (drawn !== null) break;
    left.push(title);
    const kept = head.map((name, index) => (left.includes(name) ? -1 : index)).filter((index) => index >= 0);
    drawn = drawTable(
      kept.map((index) => head[index] ?? ''),
      cells.map((row) => kept.map((index) => row[index] ?? '')),
      layout,
      kept.map((index) => whole[index] ?? false),
    );
  }
  const text =
    drawn === null
      ? stacked(head, cells, layout.width, whole)
      : `${drawn}${left.length > 0 ? `\nLeft out to fit ${layout.width} columns: ${left.join(', ')}.` : ''}`;
  return text.replaceAll(NO_BREAK, ' ');
}

/** The table in columns that fit `layout`, or null when only stacked rows would. */
function drawTable(head: string[], cells: string[][], layout: TextLayout, whole: boolean[]): string | null {
  const widths = columnWidths(head, cells, layout.width - frameOf(head.length, layout), whole);
  if (widths) return layout.borders ? bordered(head, cells, widths) : plain(head, cells, widths);
  if (whole[0] && head.length > 1) {
    const rest = head.slice(1);
    const indent = layout.borders ? 0 : ABOVE_INDENT.length;
    const restWidths = columnWidths(
      rest,
      cells.map((row) => row.slice(1)),
      layout.width - indent - frameOf(rest.length, layout),
      whole.slice(1),
    );
    if (restWidths) {
      const above = cells.map((row) => row[0] ?? '');
      const restRows = cells.map((row) => row.slice(1));
      return layout.borders
        ? bordered(rest, restRows, restWidths, above)
        : `${head[0]}\n${plain(rest, restRows, restWidths, above)}`;
    }
  }
  return null;
}

/** A table filled row by row, like cli-table3's, drawn to fit `layout` by `toString()`. */
export function textTable(head: string[], layout: TextLayout = WIDE_LAYOUT, options: TableOptions = {}) {
  const rows: TextCell[][] = [];
  return {
    push(...added: TextCell[][]) {
      rows.push(...added);
    },
    toString: () => renderTextTable(head, rows, layout, options),
  };
}
