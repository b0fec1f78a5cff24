/**
 * The blind arena on the leaderboard: the people's own Bradley-Terry ranking, and each judge model's
 * agreement with the people, with Cohen's kappa, from debates and votes written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { cohenKappa, kappaWords } from '../../src/analytics/cohen-kappa.js';
import { judgeVerdicts } from '../../src/analytics/debate-sides.js';
import { proportionInterval } from '../../src/analytics/intervals.js';
import { leaderboard } from '../../src/analytics/leaderboard.js';
import type { Scenario } from '../../src/config/scenario.js';
import { castArenaVote } from '../../src/store/arena-votes.js';
import { tempDir } from '../helpers/cli.js';
import { assessment, logOf, runEnd, scenarioOf, statement, turn, vote } from '../helpers/run-events.js';
import { indexOf, writeRun } from '../helpers/run-folders.js';

/** A formal debate (Blaise, mistral, drawn affirmative; Ada, llama3, negative) with one verdict. */
function formal(scenario: Scenario, judgeModel: string, winner: string) {
  return logOf(scenario, [
    statement(3, 'opening', 'Blaise', 'affirmative', 'For.', 'mistral'),
    statement(4, 'opening', 'Ada', 'negative', 'Against.'),
    assessment('verdict', 13, judgeModel, { winner, totals: { affirmative: 3, negative: 3 } }),
    runEnd(),
  ]);
}

function voteAll(runDir: string, choices: string[]) {
  choices.forEach((choice, at) => {
    castArenaVote(runDir, { choice, voter: `voter-${at}-of-${runDir.length}` });
  });
}

describe('the leaderboard: the blind arena', () => {
  it("ranks models by the people's votes alone and measures each judge model against the people", async () => {
    const formalScenario = await scenarioOf('formal');
    const knockoutScenario = await scenarioOf('knockout');
    const outDir = tempDir();
    voteAll(writeRun(outDir, 'd1', formal(formalScenario, 'judge-a', 'affirmative')), [
      'affirmative',
      'affirmative',
      'negative',
    ]);
    voteAll(writeRun(outDir, 'd2', formal(formalScenario, 'judge-a', 'negative')), ['negative']);
    voteAll(writeRun(outDir, 'd3', formal(formalScenario, 'judge-a', 'affirmative')), ['negative']);
    // Two answers lead equally: the people's verdict is a tie.
    voteAll(writeRun(outDir, 'd4', formal(formalScenario, 'judge-b', 'tie')), ['negative', 'affirmative']);
    const knockout = logOf(knockoutScenario, [
      turn(1, 'Xavier', 'X', 'One.'),
      turn(1, 'Yara', 'Y', 'One.', 'mistral'),
      vote(1, 'Yusuf', 'judge-a', false),
      vote(1, 'Yvonne', 'judge-b', true),
      turn(2, 'Xavier', 'X', 'Two.'),
      turn(2, 'Yara', 'Y', 'Two.', 'mistral'),
      vote(2, 'Yusuf', 'judge-a', false),
      vote(2, 'Yvonne', 'judge-b', false),
      runEnd(),
    ]);
    // Yusuf voted against Y twice (Position X); Yvonne once each way (a tie).
    expect(judgeVerdicts(knockout)).toEqual([
      { judge: 'Yusuf', model: 'judge-a', verdict: 'X' },
      { judge: 'Yvonne', model: 'judge-b', verdict: 'tie' },
    ]);
    voteAll(writeRun(outDir, 'd5', knockout), ['X', 'X', 'Y']);
    // A debate nobody voted on counts for neither table.
    writeRun(outDir, 'd6', formal(formalScenario, 'judge-a', 'negative'));

    const index = indexOf(outDir);
    try {
      const tables = leaderboard(index);
      const people = tables.find((table) => table.title.startsWith('Ranking of models by people'));
      // mistral (affirmative, Y): won 2 of d1, 1 of d4 and 1 of d5; lost the rest of the 10 votes.
      expect(people?.columns).toEqual(['Model', 'Rating', '95% interval', 'Wins', 'Losses', 'Ties', 'Votes']);
      expect(people?.rows.map((row) => [row[0], ...row.slice(3)])).toEqual([
        ['llama3', 6, 4, 0, 10],
        ['mistral', 4, 6, 0, 10],
      ]);
      expect(Number(people?.rows[0]?.[1])).toBeGreaterThan(1500);
      expect(people?.note).toMatch(/^From 10 votes on 5 debates in the blind arena/);

      const calibration = tables.find((table) => table.title.startsWith('Judges against people'));
      // judge-a: (affirmative, affirmative), (negative, negative), (affirmative, negative), (X, X).
      const pairsA: Array<[string, string]> = [
        ['affirmative', 'affirmative'],
        ['negative', 'negative'],
        ['affirmative', 'negative'],
        ['X', 'X'],
      ];
      const kappaA = cohenKappa(pairsA) ?? Number.NaN;
      expect(kappaA).toBeCloseTo(7 / 11, 10);
      const intervalA = proportionInterval(3, 4);
      const round2 = (value: number) => Math.round(value * 100) / 100;
      expect(calibration?.rows).toEqual([
        [
          'judge-a',
          4,
          4,
          3,
          0.75,
          `${round2(intervalA?.low ?? 0)}–${round2(intervalA?.high ?? 0)}`,
          0.64,
          '0 (0 of 1)',
          'too few votes to tell (4 of the 10 debates needed)',
        ],
        // judge-b: (tie, tie) on d4, (tie, X) on d5: chance alone explains the agreement.
        [
          'judge-b',
          2,
          2,
          1,
          0.5,
          expect.any(String),
          0,
          '0 (0 of 1)',
          'too few votes to tell (2 of the 10 debates needed)',
        ],
      ]);
      expect(calibration?.note).toMatch(/^5 debates with both people's votes and judges' verdicts/);

      // The judges' own ranking is untouched by the people's votes: it has the formal verdicts and knockout rounds.
      const judges = tables.find((table) => table.title === 'Ranking of models (Bradley-Terry)');
      expect(judges?.rows.map((row) => row[0]).sort()).toEqual(['llama3', 'mistral']);
    } finally {
      index.close();
    }
  });
});

describe("Cohen's kappa", () => {
  it('corrects agreement for chance: 70% agreement between raters who say yes half and 60% of the time is 0.4', () => {
    const pairs: Array<[string, string]> = [
      ...Array.from({ length: 20 }, (): [string, string] => ['yes', 'yes']),
      ...Array.from({ length: 5 }, (): [string, string] => ['yes', 'no']),
      ...Array.from({ length: 10 }, (): [string, string] => ['no', 'yes']),
      ...Array.from({ length: 15 }, (): [string, string] => ['no', 'no']),
    ];
    expect(cohenKappa(pairs)).toBeCloseTo(0.4, 12);
    expect(kappaWords(0.4)).toBe('fair');
  });

  it('is 1 for agreement throughout, undefined when both always give one answer, and null without pairs', () => {
    expect(
      cohenKappa([
        ['a', 'a'],
        ['b', 'b'],
      ]),
    ).toBe(1);
    expect(
      cohenKappa([
        ['a', 'a'],
        ['a', 'a'],
      ]),
    ).toBeNull();
    expect(cohenKappa([])).toBeNull();
    expect(
      cohenKappa([
        ['a', 'b'],
        ['b', 'a'],
      ]),
    ).toBe(-1);
    expect(kappaWords(-1)).toBe('worse than chance');
  });
});
