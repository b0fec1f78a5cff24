/**
 * At 80 columns the closing tables keep each name on one line (columns give way first), and the
 * leaderboard's overview keeps to about a screenful: no empty tables drawn, no reliability counts
 * that are zero in every row, notes wrapped to the width.
 */

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgora, tempDir } from '../helpers/cli.js';

const AGENTS = [
  'Avery Morgan',
  'Dr. Miriam Okafor',
  'Dr. Hannah Lindqvist',
  'Grace Whitfield',
  'Thomas Reyes',
];
const narrow = { env: { COLUMNS: '80' } };

describe('tables at 80 columns', () => {
  it('a knockout’s closing tables and the leaderboard keep names whole and fit the width', async () => {
    const out = path.join(tempDir(), 'runs');
    const knockout = await runAgora(
      ['demo', 'scenarios/abortion.yaml', '--profile', 'instant', '--out', out, '--quiet'],
      narrow,
    );
    expect(knockout.code).toBe(0);
    const lines = knockout.stdout.split('\n');
    // A path longer than the width stays whole, on a line of its own, to be copied.
    for (const line of lines.filter((text) => text.trim().includes(' ')))
      expect(line.length, line).toBeLessThanOrEqual(80);
    // Every agent of the agents table on one line, and no name broken in the rounds table.
    const agentRows = lines.filter((line) => AGENTS.some((name) => line.startsWith(`${name} `)));
    expect(agentRows.map((line) => AGENTS.find((name) => line.startsWith(name)))).toEqual(
      expect.arrayContaining(AGENTS),
    );
    for (const line of lines) expect(line.trim()).not.toMatch(/^(Dr\.|Miriam|Okafor|Hannah|Lindqvist)$/);
    const judged = lines.filter((line) => /\d\.\d\d \/ 5/.test(line) && /: /.test(line));
    expect(judged.length).toBeGreaterThan(0);

    const duel = await runAgora(
      ['demo', 'scenarios/duel-remote-work.yaml', '--profile', 'instant', '--out', out, '--quiet'],
      narrow,
    );
    expect(duel.code).toBe(0);
    const board = await runAgora(['leaderboard', '--out', out, '--include-demo'], narrow);
    expect(board.code).toBe(0);
    const shown = board.stdout.split('\n');
    for (const line of shown) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(shown.length).toBeLessThanOrEqual(60);
    // No block of zeros: the reliability report names the counts that are zero everywhere instead.
    expect(board.stdout).not.toMatch(/Unusable: 0|No JSON: 0/);
    expect(board.stdout).toMatch(/Zero in every row, not shown: Unusable,/);
    // Empty tables are named, not drawn with their headers.
    expect(board.stdout).toMatch(/Nothing to show yet: [a-z, ]*truth\./);
    expect(board.stdout).not.toContain('Judges against people');
    for (const name of AGENTS) expect(board.stdout).toContain(name);
    // One table asked for comes whole, its note wrapped to the width.
    const one = await runAgora(
      ['leaderboard', '--out', out, '--include-demo', '--table', 'reliability'],
      narrow,
    );
    expect(one.code).toBe(0);
    for (const line of one.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(one.stdout).toContain('Per structured answer asked of a model.');
  }, 900_000);
});
