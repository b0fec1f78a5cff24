/**
 * The leaderboard's mean scores: Position X, which the judges never score, is said to be not
 * scored; an interval stays within the 1-5 scale; the CSV gives an interval's ends in two columns.
 */
import { describe, expect, it } from 'vitest';
import { csvTable, leaderboard } from '../../src/analytics/leaderboard.js';
import type { RunEventBody } from '../../src/core/events.js';
import { tempDir } from '../helpers/cli.js';
import { logOf, runEnd, scenarioOf, turn, vote } from '../helpers/run-events.js';
import { indexOf, writeRun } from '../helpers/run-folders.js';

function roundEnd(round: number, debater: string, meanScore: number): RunEventBody {
  return {
    type: 'round-end',
    round,
    debater,
    tally: {
      rotateVotes: 1,
      continueVotes: 1,
      abstentions: 0,
      meanScore,
      decision: 'continue',
      decidedBy: 'scores',
    },
    outcome: 'continue',
    rotation: null,
    transition: { summary: '', focus: '' },
    realMs: 5,
  } as RunEventBody;
}

describe('the leaderboard: mean scores', () => {
  it('says Position X is not scored, and keeps a wide interval within the 1-5 scale', async () => {
    const scenario = await scenarioOf('knockout');
    const outDir = tempDir();
    writeRun(
      outDir,
      'k1',
      logOf(scenario, [
        turn(1, 'Xavier', 'X', 'One.'),
        turn(1, 'Yara', 'Y', 'One.', 'mistral'),
        vote(1, 'Yusuf', 'judge-a', true, 5),
        vote(1, 'Yvonne', 'judge-b', false, 1),
        roundEnd(1, 'Yara', 3),
        runEnd(),
      ]),
    );
    const index = indexOf(outDir);
    try {
      const [models, agents] = leaderboard(index);
      for (const [table, x, y] of [
        [models, 'llama3', 'mistral'],
        [agents, 'Xavier (llama3)', 'Yara (mistral)'],
      ] as const) {
        const columns = table?.columns ?? [];
        const rowOf = (key: string) =>
          Object.fromEntries(
            columns.map((column, at) => [column, table?.rows.find((row) => row[0] === key)?.[at]]),
          );
        // The judges score only Y's statements: X is said to be not scored, never left blank.
        expect(rowOf(x)['Mean score']).toBe('not scored');
        expect(table?.note).toMatch(/never Position X's/);
        // Scores of 5 and 1: Student-t runs far past the scale; the interval stops at its ends.
        expect(rowOf(y)).toMatchObject({ 'Mean score': 3, '95% interval': '1–5' });
      }
    } finally {
      index.close();
    }
  });

  it('gives each interval in CSV as two columns, low and high', () => {
    const table = csvTable({
      title: 'Models',
      columns: ['Model', 'Mean score', '95% interval', 'Rounds'],
      rows: [
        ['mistral', 2.89, '2.61–3.17', 4],
        ['llama3', 'not scored', null, 4],
      ],
    });
    expect(table.columns).toEqual(['Model', 'Mean score', '95% low', '95% high', 'Rounds']);
    expect(table.rows).toEqual([
      ['mistral', 2.89, 2.61, 3.17, 4],
      ['llama3', 'not scored', null, null, 4],
    ]);
  });
});
