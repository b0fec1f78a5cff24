import { describe, expect, it } from 'vitest';
import { bradleyTerry } from '../../src/analytics/bradley-terry.js';
import { type RatedDebate, topModelRobustness } from '../../src/analytics/top-model-robustness.js';
import type { TournamentMatch } from '../../src/analytics/tournament-match.js';
import { computeStandings } from '../../src/analytics/tournament-standings.js';

const style = {
  first: { tokensPerStatement: 300, markdownPerStatement: 1 },
  second: { tokensPerStatement: 300, markdownPerStatement: 1 },
};
let counter = 0;
const game = (first: string, second: string, score: 1 | 0.5 | 0): TournamentMatch => ({
  runId: `r${String(++counter).padStart(3, '0')}`,
  motionId: '1',
  first,
  second,
  score,
  style,
  readings: [],
});

// The top model of the leaderboard's own fit (MM), independent of the search's Newton refits.
const topOf = (debates: readonly TournamentMatch[]) =>
  bradleyTerry(
    debates.map((match) => ({
      a: match.first,
      b: match.second,
      winner: match.score === 1 ? ('a' as const) : match.score === 0 ? ('b' as const) : ('tie' as const),
    })),
    { bootstrap: 0 },
  )[0]?.player;

describe('the robustness line', () => {
  it('needs two flipped debates when one would only level the score, and the leader keeps equal ratings by name', () => {
    // a beat b three times, b beat a once. Flipping one of a's wins levels it at 2-2: equal ratings,
    // listed by name, so a stays on top; flipping two puts b on top.
    const debates = [game('a', 'b', 1), game('b', 'a', 0), game('a', 'b', 1), game('b', 'a', 1)];
    const robustness = computeStandings(debates, { resamples: 0 }).robustness;
    expect(robustness).toMatchObject({
      topModel: 'a',
      debates: 2,
      method: 'exact',
      lowerBound: 2,
      newTopModel: 'b',
    });
    expect(robustness?.changes).toHaveLength(2);
    for (const change of robustness?.changes ?? []) {
      const original = debates.find((debate) => debate.runId === change.runId);
      expect(original?.score === 1 ? original.first : original?.second).toBe('a');
      expect(change.changedTo).toBe(1 - change.score);
    }
  });

  it('needs one when the levelled score lists the other model first', () => {
    const debates = [game('z', 'a', 1), game('a', 'z', 0), game('z', 'a', 1), game('a', 'z', 1)];
    expect(computeStandings(debates, { resamples: 0 }).robustness).toMatchObject({
      topModel: 'z',
      debates: 1,
      method: 'exact',
      newTopModel: 'a',
    });
  });

  it('counts a decided tie as one change worth half a point', () => {
    // a: two wins and a tie against b (2.5 of 3). One change leaves a at 1.5 or 2 of 3, still top
    // (at 1.5 by name); a flipped win plus the tie decided for b, or two flipped wins, are needed.
    const debates = [game('a', 'b', 1), game('b', 'a', 0), game('a', 'b', 0.5)];
    expect(computeStandings(debates, { resamples: 0 }).robustness).toMatchObject({
      topModel: 'a',
      debates: 2,
      method: 'exact',
    });
  });

  it('finds the fewest changes on a three-model league, checked against every smaller set', () => {
    const debates = [
      game('a', 'b', 1),
      game('b', 'a', 0),
      game('a', 'c', 1),
      game('c', 'a', 0.5),
      game('b', 'c', 1),
      game('c', 'b', 0),
      game('a', 'b', 1),
      game('c', 'a', 0),
      game('b', 'c', 0.5),
      game('a', 'c', 1),
      game('b', 'a', 1),
      game('c', 'b', 1),
      game('a', 'b', 0.5),
      game('c', 'a', 0),
    ];
    const robustness = computeStandings(debates, { resamples: 0 }).robustness;
    const needed = robustness?.debates ?? 0;
    expect(robustness?.method).toBe('exact');
    expect(needed).toBeGreaterThan(0);
    const top = topOf(debates);
    expect(robustness?.topModel).toBe(top);
    // The changes found do change the top model.
    const changed = debates.map((debate) => {
      const change = robustness?.changes.find((item) => item.runId === debate.runId);
      return change ? { ...debate, score: change.changedTo as 1 | 0.5 | 0 } : debate;
    });
    expect(topOf(changed)).not.toBe(top);
    expect(robustness?.changes).toHaveLength(needed);
    // No set of fewer changes does: every outcome change of up to needed - 1 debates, refitted.
    const options = debates.map((debate) =>
      debate.score === 0.5 ? ([1, 0] as const) : debate.score === 1 ? ([0] as const) : ([1] as const),
    );
    let checked = 0;
    const search = (from: number, left: number, current: TournamentMatch[]) => {
      if (left === 0) return;
      for (let at = from; at < current.length; at++) {
        for (const score of options[at] ?? []) {
          const next = current.map((debate, index) => (index === at ? { ...debate, score } : debate));
          checked += 1;
          expect(topOf(next)).toBe(top);
          search(at + 1, left - 1, next);
        }
      }
    };
    search(0, needed - 1, debates);
    // This league needs more than one change, so smaller sets were there to check.
    expect(needed).toBeGreaterThan(1);
    expect(checked).toBeGreaterThan(0);
  });

  it('falls back to a verified greedy count, with a lower bound, when the exact search is cut short', () => {
    const debates: RatedDebate[] = [];
    // a beat b eight times of ten, and c six of ten; b and c split evenly.
    const add = (first: number, second: number, score: number, times: number) => {
      for (let k = 0; k < times; k++) debates.push({ first, second, score, runId: `d${debates.length}` });
    };
    add(0, 1, 1, 8);
    add(0, 1, 0, 2);
    add(0, 2, 1, 6);
    add(0, 2, 0, 4);
    add(1, 2, 1, 5);
    add(1, 2, 0, 5);
    const greedy = topModelRobustness(['a', 'b', 'c'], debates, { searchLimit: 3 });
    const exact = topModelRobustness(['a', 'b', 'c'], debates);
    expect(greedy?.method).toBe('greedy');
    expect(exact?.method).toBe('exact');
    expect(greedy?.lowerBound ?? 0).toBeLessThanOrEqual(exact?.debates ?? 0);
    expect(greedy?.debates ?? 0).toBeGreaterThanOrEqual(exact?.debates ?? 0);
    // The greedy changes, applied and refitted by the leaderboard's fit, do change the top model.
    const asMatches = (list: RatedDebate[]) =>
      list.map((debate) => {
        const change = greedy?.changes.find((item) => item.runId === debate.runId);
        return game(
          ['a', 'b', 'c'][debate.first] ?? '',
          ['a', 'b', 'c'][debate.second] ?? '',
          (change?.changedTo ?? debate.score) as 1 | 0.5 | 0,
        );
      });
    expect(topOf(asMatches(debates))).not.toBe('a');
  });
});
