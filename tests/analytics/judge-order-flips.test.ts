import { describe, expect, it } from 'vitest';
import { judgeConsistency } from '../../src/analytics/judge-order-flips.js';
import type { JudgeReading, TournamentMatch } from '../../src/analytics/tournament-match.js';

const style = {
  first: { tokensPerStatement: 300, markdownPerStatement: 1 },
  second: { tokensPerStatement: 300, markdownPerStatement: 1 },
};
const debate = (runId: string, readings: JudgeReading[]): TournamentMatch => ({
  runId,
  motionId: '1',
  first: 'a',
  second: 'b',
  score: 1,
  style,
  readings,
});

describe('judgeConsistency', () => {
  it('counts order flips and agreement with the other judges, as worked out by hand', () => {
    const matches = [
      // d1: j1 flips (first, then second: verdict tie); j2 first both ways; j3 first, then a tie
      // (a half flip, verdict first).
      debate('d1', [
        { judgeModel: 'j1', inOrder: 'first', swapped: 'second' },
        { judgeModel: 'j2', inOrder: 'first', swapped: 'first' },
        { judgeModel: 'j3', inOrder: 'first', swapped: 'tie' },
      ]),
      // d2: j1 second both ways; j2 a tie, then second (half flip, verdict second); j3 asked once.
      debate('d2', [
        { judgeModel: 'j1', inOrder: 'second', swapped: 'second' },
        { judgeModel: 'j2', inOrder: 'tie', swapped: 'second' },
        { judgeModel: 'j3', inOrder: 'first', swapped: null },
      ]),
      // d3: everyone first both ways.
      debate('d3', [
        { judgeModel: 'j1', inOrder: 'first', swapped: 'first' },
        { judgeModel: 'j2', inOrder: 'first', swapped: 'first' },
        { judgeModel: 'j3', inOrder: 'first', swapped: 'first' },
      ]),
    ];
    // Side-swapped pairs: j1 3 (one flip), j2 3 (no flip, one half flip), j3 2 (d1 and d3; one half flip).
    // Panel, by debate (verdicts d1: tie, first, first; d2: second, second, first; d3: all first):
    //  j1: d1 others first+first -> first, j1 tie: no; d2 others second+first: no majority; d3 yes -> 1 of 2.
    //  j2: d1 others tie+first: none; d2 others second+first: none; d3 yes -> 1 of 1.
    //  j3: d1 others tie+first: none; d2 others second+second -> second, j3 first: no; d3 yes -> 1 of 2.
    expect(judgeConsistency(matches)).toEqual([
      {
        judgeModel: 'j1',
        readings: 3,
        swappedPairs: 3,
        orderFlips: 1,
        halfFlips: 0,
        orderFlipRate: 1 / 3,
        panelCompared: 2,
        panelAgreed: 1,
        panelAgreement: 0.5,
      },
      {
        judgeModel: 'j2',
        readings: 3,
        swappedPairs: 3,
        orderFlips: 0,
        halfFlips: 1,
        orderFlipRate: 0,
        panelCompared: 1,
        panelAgreed: 1,
        panelAgreement: 1,
      },
      {
        judgeModel: 'j3',
        readings: 3,
        swappedPairs: 2,
        orderFlips: 0,
        halfFlips: 1,
        orderFlipRate: 0,
        panelCompared: 2,
        panelAgreed: 1,
        panelAgreement: 0.5,
      },
    ]);
  });

  it('compares readings within their unit when the debate names units', () => {
    // Round 1: j1 and j2 first, j3 second. Round 2: all second. Per unit: in round 1 j1's others
    // are j2 first and j3 second (no majority), in round 2 both second (agrees); j2 likewise; j3
    // disagrees in round 1 (others first, first) and agrees in round 2.
    const readings: JudgeReading[] = [
      { judgeModel: 'j1', inOrder: 'first', swapped: 'first', unit: '1' },
      { judgeModel: 'j2', inOrder: 'first', swapped: 'first', unit: '1' },
      { judgeModel: 'j3', inOrder: 'second', swapped: 'second', unit: '1' },
      { judgeModel: 'j1', inOrder: 'second', swapped: 'second', unit: '2' },
      { judgeModel: 'j2', inOrder: 'second', swapped: 'second', unit: '2' },
      { judgeModel: 'j3', inOrder: 'second', swapped: 'second', unit: '2' },
    ];
    const byUnit = judgeConsistency([debate('d1', readings)]);
    expect(byUnit.map((judge) => [judge.judgeModel, judge.panelAgreed, judge.panelCompared])).toEqual([
      ['j1', 1, 1],
      ['j2', 1, 1],
      ['j3', 1, 2],
    ]);
    // Without units the six readings are one unit. j1's others are j2's first and second and j3's
    // second and second: a majority for second, which j1's round-2 reading shares and its round-1
    // reading does not (1 of 2); j2 likewise; j3's others split first, second, first, second: none.
    const whole = judgeConsistency([
      debate(
        'd1',
        readings.map(({ unit: _unit, ...reading }) => reading),
      ),
    ]);
    expect(whole.map((judge) => [judge.panelAgreed, judge.panelCompared])).toEqual([
      [1, 2],
      [1, 2],
      [0, 0],
    ]);
  });
});
