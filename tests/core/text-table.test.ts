import { describe, expect, it } from 'vitest';
import { renderTextTable } from '../../src/render/text-table.js';

const RUN_ID = '20261125-204612-design-a-rate-limiter-for-a-public-http-s11';
const HEAD = ['Run', 'Judge', 'Topic'];
const ROWS = [
  [RUN_ID, '3.20 / 5, rotate', 'Design a rate limiter for a public HTTP API served by many servers'],
];
const BOX = /[┌┐└┘│─┼├┤┬┴]/;

describe('text tables', () => {
  it('never wraps a column kept whole, on a terminal or in a pipe, at any width', () => {
    for (const borders of [true, false]) {
      for (const width of [40, 60, 80, 120, 200]) {
        const text = renderTextTable(HEAD, ROWS, { width, borders }, { keepWhole: ['Run'] });
        expect(text.split('\n').some((line) => line.includes(RUN_ID))).toBe(true);
      }
    }
  });

  it('puts a whole first column on its own line above the rest of its row when both do not fit side by side', () => {
    const text = renderTextTable(HEAD, ROWS, { width: 60, borders: false }, { keepWhole: ['Run'] });
    const lines = text.split('\n');
    expect(lines[0]).toBe('Run');
    expect(lines).toContain(RUN_ID);
    expect(text).not.toMatch(BOX);
    expect(text).not.toMatch(/^\s*Judge: /m);
  });

  it('keeps a short value such as "3.20 / 5" or "16 ms" on one line when its cell wraps', () => {
    const rows = [['a', '3.20 / 5, rotate', 'took 16 ms in all']];
    for (const borders of [true, false]) {
      const text = renderTextTable(['Id', 'Judge', 'Time'], rows, { width: borders ? 30 : 22, borders });
      expect(text).toContain('3.20 / 5');
      expect(text).toContain('16 ms');
      expect(text).not.toContain('\u00a0');
    }
  });

  it('leaves out the columns it may do without, and says so, before it stacks the rows', () => {
    const head = [
      'Agent',
      'Pos',
      'Model',
      'Rounds',
      'Mean score',
      'Votes against',
      'Knocked out',
      'Sim. time',
      'Tokens in',
      'Tokens out',
      'Real time',
    ];
    const rows = [
      ['Avery Morgan', 'X', 'llama3', 6, '—', 0, 'no', '297.9 s', 18459, 1117, '0.1 s'],
      ['Dr. Hannah Lindqvist', 'Y', 'mistral', 1, '1.27 / 5', 3, 'yes', '39.2 s', 20996, 642, '0.1 s'],
    ];
    const layout = { width: 80, borders: false };
    const stackedRows = renderTextTable(head, rows, layout);
    expect(stackedRows).toContain('Agent: Avery Morgan');
    const fitted = renderTextTable(head, rows, layout, {
      leaveOut: ['Real time', 'Tokens out', 'Tokens in'],
    });
    expect(fitted).not.toContain('Agent: ');
    expect(fitted.split('\n').filter((line) => line.length > 80)).toEqual([]);
    expect(fitted).toMatch(/^Agent\s+Pos\s+Model/);
    expect(fitted).toMatch(/\nLeft out to fit 80 columns: Real time(, Tokens out)?(, Tokens in)?\.$/);
    // Wide enough for every column: nothing is left out.
    const wide = renderTextTable(head, rows, { width: 200, borders: false }, { leaveOut: ['Real time'] });
    expect(wide).not.toContain('Left out');
    expect(wide).toContain('Real time');
  });
});
