/**
 * The blind arena on the leaderboard: the people's own Bradley-Terry ranking, each judge model's
 * agreement with the people (one verdict per debate, on one scale), with Cohen's kappa, and the two
 * rankings compared, from debates and votes written out by hand and worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { bradleyTerry } from '../../src/analytics/bradley-terry.js';
import { cohenKappa, kappaWords } from '../../src/analytics/cohen-kappa.js';
import { judgeVerdicts, modelVerdicts } from '../../src/analytics/debate-sides.js';
import { proportionInterval } from '../../src/analytics/intervals.js';
import { csvTable, leaderboard } from '../../src/analytics/leaderboard.js';
import { kendallTauB } from '../../src/analytics/rank-correlation.js';
import type { Scenario } from '../../src/config/scenario.js';
import { castArenaVote, noteNamesSeen } from '../../src/store/arena-votes.js';
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

const round2 = (value: number) => Math.round(value * 100) / 100;

function voteAll(runDir: string, choices: string[]) {
  choices.forEach((choice, at) => {
    castArenaVote(runDir, { choice, voter: `voter-${at}-of-${runDir.length}` });
  });
}

describe('the leaderboard: the blind arena, with the debate as the unit', () => {
  it("ranks models by the people's blind votes alone and measures each judge model against the people, one verdict per debate", async () => {
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
    // Two judges on judge-a, both against Y: one verdict of judge-a on this debate, not two.
    const d5 = logOf(knockoutScenario, [
      turn(1, 'Xavier', 'X', 'One.'),
      turn(1, 'Yara', 'Y', 'One.', 'mistral'),
      vote(1, 'Yusuf', 'judge-a', false),
      vote(1, 'Yannick', 'judge-a', false),
      vote(1, 'Yvonne', 'judge-b', true),
      runEnd(),
    ]);
    expect(modelVerdicts(judgeVerdicts(d5))).toEqual([
      { model: 'judge-a', verdict: 'X', judges: 2 },
      { model: 'judge-b', verdict: 'Y', judges: 1 },
    ]);
    const d5Dir = writeRun(outDir, 'd5', d5);
    voteAll(d5Dir, ['X', 'X', 'Y']);
    // A browser that saw the names first: its vote (however it got in) is kept apart and counts nowhere.
    noteNamesSeen(d5Dir, 'seen-first', 'page', new Date('2026-01-01T10:00:00Z'));
    castArenaVote(d5Dir, { choice: 'Y', voter: 'seen-first' }, new Date('2026-01-01T10:05:00Z'));
    // Yara debated round 1 and Yusuf round 2: their votes on the other round are on their own side and left out.
    const d7 = logOf(knockoutScenario, [
      turn(1, 'Xavier', 'X', 'One.'),
      turn(1, 'Yara', 'Y', 'One.', 'mistral'),
      vote(1, 'Yusuf', 'judge-a', false),
      vote(1, 'Yvonne', 'judge-b', true),
      turn(2, 'Xavier', 'X', 'Two.'),
      turn(2, 'Yusuf', 'Y', 'Two.', 'mistral'),
      vote(2, 'Yara', 'judge-a', true),
      vote(2, 'Yvonne', 'judge-b', false),
      runEnd(),
    ]);
    expect(judgeVerdicts(d7)).toEqual([{ judge: 'Yvonne', model: 'judge-b', verdict: 'tie' }]);
    voteAll(writeRun(outDir, 'd7', d7), ['Y']);
    // A debate nobody voted on counts for neither table.
    writeRun(outDir, 'd6', formal(formalScenario, 'judge-a', 'negative'));

    const index = indexOf(outDir);
    try {
      const tables = leaderboard(index);
      const people = tables.find((table) => table.title.startsWith('Ranking of models by people'));
      // Blind votes only: llama3 (negative, X) won d1 1, d2 1, d3 1, d4 1, d5 2 = 6; mistral d1 2, d4 1, d5 1, d7 1 = 5.
      expect(people?.columns).toEqual(['Model', 'Rating', '95% interval', 'Wins', 'Losses', 'Ties', 'Votes']);
      expect(people?.rows.map((row) => [row[0], ...row.slice(3)])).toEqual([
        ['llama3', 6, 5, 0, 11],
        ['mistral', 5, 6, 0, 11],
      ]);
      expect(people?.note).toMatch(/^From 11 blind votes on 6 debates in the blind arena/);
      expect(people?.note).toContain('1 vote from browsers that had seen the debate');

      const calibration = tables.find((table) => table.title.startsWith('Judges against people'));
      expect(calibration?.columns).toEqual([
        'Judge model',
        'Format',
        'Debates',
        'Agreed with people',
        'Agreement',
        '95% interval',
        "Cohen's kappa",
        'Kappa 95% interval',
        'Agreement with other judges',
        'Reading',
      ]);
      // On the one scale (first side, second side, tie), judge against people, one pair per debate:
      // judge-a: d1 (first, first), d2 (second, second), d3 (first, second), d5 (first, first).
      //   Agreement 3/4; kappa: p_o = 3/4, p_e = 3/4 * 2/4 + 1/4 * 2/4 = 1/2, (3/4 - 1/2) / (1/2) = 0.5.
      //   Formal alone: p_o = 2/3, p_e = 2/3 * 1/3 + 1/3 * 2/3 = 4/9, kappa (6/9 - 4/9) / (5/9) = 0.4.
      // judge-b: d4 (tie, tie), d5 (second, first), d7 (tie, second).
      //   Agreement 1/3; p_e = 2/3 * 1/3 + 1/3 * 1/3 = 1/3, kappa (1/3 - 1/3) / (2/3) = 0.
      //   Knockout alone: p_o = 0, p_e = 1/2 * 1/2 = 1/4, kappa -1/4 / (3/4) = -1/3.
      // The judges against each other: only d5 has two judge models, and they disagree: 0 of 1 pair.
      const wilson = (agreed: number, of: number) => {
        const found = proportionInterval(agreed, of);
        return `${round2(found?.low ?? 0)}–${round2(found?.high ?? 0)}`;
      };
      const few = (n: number) => `too few votes to tell (${n} of the 10 debates needed)`;
      const rows = calibration?.rows ?? [];
      expect(rows.map((row) => [...row.slice(0, 7), row[8], row[9]])).toEqual([
        ['judge-a', 'all', 4, 3, 0.75, wilson(3, 4), 0.5, '0 (0 of 1)', few(4)],
        ['judge-a', 'formal', 3, 2, 0.67, wilson(2, 3), 0.4, null, few(3)],
        ['judge-a', 'knockout', 1, 1, 1, wilson(1, 1), null, '0 (0 of 1)', few(1)],
        ['judge-b', 'all', 3, 1, 0.33, wilson(1, 3), 0, '0 (0 of 1)', few(3)],
        ['judge-b', 'formal', 1, 1, 1, wilson(1, 1), null, null, few(1)],
        ['judge-b', 'knockout', 2, 0, 0, wilson(0, 2), -0.33, '0 (0 of 1)', few(2)],
      ]);
      // Kappa's interval: a bootstrap over the 4 debates of judge-a, within kappa's range and around its value.
      const [low, high] = String(rows[0]?.[7]).split('–').map(Number);
      expect(low).toBeLessThanOrEqual(0.5);
      expect(high).toBeGreaterThanOrEqual(0.5);
      expect(high).toBeLessThanOrEqual(1);
      expect(calibration?.note).toMatch(
        /^6 debates with both people's blind votes and judges' verdicts; 1 vote from browsers/,
      );
      expect(calibration?.note).toContain('over all judge models: 0, 0 of 1 pair');
      // For CSV, both intervals become two columns of numbers.
      const csv = calibration ? csvTable(calibration) : null;
      expect(csv?.columns.slice(5, 10)).toEqual([
        '95% low',
        '95% high',
        "Cohen's kappa",
        'Kappa 95% low',
        'Kappa 95% high',
      ]);
      expect(csv?.rows[0]?.slice(8, 10)).toEqual([low, high]);

      // The rankings compared: people put llama3 first (6 wins to 5); the judge models' verdicts put
      // mistral first (d1, d3 and judge-b on d5: 3 wins, to llama3's 2, with 2 ties): tau-b is -1.
      const compared = tables.find((table) =>
        table.title.startsWith('Rankings by people and by judges compared'),
      );
      expect(compared?.title).toMatch(/Kendall tau-b -1 \(95% interval -?[0-9.]+–-?[0-9.]+\)$/);
      expect(compared?.rows.map((row) => [row[0], row[2], row[4]])).toEqual([
        ['llama3', 1, 2],
        ['mistral', 2, 1],
      ]);

      // The judges' own ranking is untouched by the people's votes: it has the formal verdicts and knockout rounds.
      const judges = tables.find((table) => table.title === 'Ranking of models (Bradley-Terry)');
      expect(judges?.rows.map((row) => row[0]).sort()).toEqual(['llama3', 'mistral']);
    } finally {
      index.close();
    }
  });
});

describe('intervals over debates', () => {
  it('the Bradley-Terry bootstrap draws whole debates: one debate of many matches gives no spread', () => {
    const matches = [
      ...Array.from({ length: 6 }, () => ({ a: 'p', b: 'q', winner: 'a' as const })),
      ...Array.from({ length: 4 }, () => ({ a: 'p', b: 'q', winner: 'b' as const })),
    ];
    const byMatch = bradleyTerry(matches);
    expect((byMatch[0]?.high ?? 0) - (byMatch[0]?.low ?? 0)).toBeGreaterThan(50);
    // Every resample of one debate is that debate: the interval is the rating itself.
    const byDebate = bradleyTerry(matches.map((match) => ({ ...match, cluster: 'only' })));
    expect(byDebate[0]?.low).toBeCloseTo(byDebate[0]?.rating ?? 0, 9);
    expect(byDebate[0]?.high).toBeCloseTo(byDebate[0]?.rating ?? 0, 9);
    expect(byDebate[0]?.rating).toBeCloseTo(byMatch[0]?.rating ?? 0, 9);
  });

  it("Kendall's tau-b, worked by hand", () => {
    // 5 concordant pairs, 1 discordant, no ties: (5 - 1) / 6.
    expect(kendallTauB([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(4 / 6, 12);
    // 4 concordant, 0 discordant, one pair tied in each: 4 / sqrt((6 - 1) * (6 - 1)) = 0.8.
    expect(kendallTauB([1, 2, 2, 3], [1, 2, 3, 3])).toBeCloseTo(0.8, 12);
    expect(kendallTauB([1, 2], [2, 1])).toBe(-1);
    expect(kendallTauB([1, 1], [1, 2])).toBeNull();
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
