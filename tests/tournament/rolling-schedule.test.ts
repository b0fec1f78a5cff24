/**
 * The adaptive tournament's next pairing, chosen as soon as slots free: from the results of a
 * numbered prefix of the plan, once that prefix has ended, so the choice is the same whichever
 * debate happens to end first.
 */
import { describe, expect, it } from 'vitest';
import { choicePrefix, nextRollingMatches, schedulingLag } from '../../src/tournament/rolling-schedule.js';
import type { TournamentEntry, TournamentState } from '../../src/tournament/tournament-log.js';
import {
  adaptiveMatches,
  type PlannedMatch,
  type TournamentSpec,
  tournamentId,
} from '../../src/tournament/tournament-plan.js';
import { playDebate, type SyntheticWorld } from '../helpers/synthetic-tournament.js';

const spec: TournamentSpec = {
  models: ['m1', 'm2', 'm3', 'm4'],
  motions: ['Tea', 'Trains', 'Homework', 'Cities'].map((motion, at) => ({ id: `${at + 1}`, motion })),
  format: 'duel',
  rounds: 1,
  seed: 42,
  schedule: 'adaptive',
  budget: 30,
  judges: null,
};
const id = tournamentId(spec);
const world: SyntheticWorld = { strengths: { m1: 0.9, m2: 0.3, m3: -0.3, m4: -0.9 }, seed: 7 };

function stateWith(planned: PlannedMatch[], endedIndexes: readonly number[]): TournamentState {
  const start: Extract<TournamentEntry, { type: 'tournament-start' }> = {
    type: 'tournament-start',
    at: '2026-01-01T00:00:00.000Z',
    id,
    spec,
    motionsFile: 'motions.txt',
    simulated: true,
    notices: [],
  };
  const ended = new Map(
    planned
      .filter((match) => endedIndexes.includes(match.index))
      .map((match) => [
        match.runId,
        {
          type: 'debate-end' as const,
          at: start.at,
          index: match.index,
          runId: match.runId,
          status: 'completed' as const,
          result: null,
          error: null,
          match: { ...playDebate(world, match), runId: match.runId },
          outputTokens: 0,
        },
      ]),
  );
  return { start, planned: [...planned], started: new Set(), queued: new Set(), ended };
}

const upTo = (last: number) => Array.from({ length: last }, (_, at) => at + 1);
const ends = (state: TournamentState) => (match: PlannedMatch) => state.ended.has(match.runId);
const brief = (matches: PlannedMatch[]) =>
  matches.map((match) => `${match.index}:${match.motionId}:${match.first}>${match.second}`);

describe('the rolling adaptive schedule', () => {
  const first = adaptiveMatches(spec, id, [], [], 0);
  const lag = schedulingLag(4);

  it('plans a pairing more than the slots beyond what the choice reads', () => {
    expect(first).toHaveLength(12);
    expect([1, 2, 3, 4, 5, 8].map(schedulingLag)).toEqual([4, 4, 6, 6, 8, 10]);
    expect(choicePrefix(12, lag)).toBe(8);
  });

  it('waits for every debate of the prefix it reads, not for the whole first batch', () => {
    const waiting = stateWith(first, [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12]);
    expect(nextRollingMatches(waiting, lag, ends(waiting))).toEqual([]);
    const ready = stateWith(first, upTo(8));
    const next = nextRollingMatches(ready, lag, ends(ready));
    expect(next.map((match) => match.index)).toEqual([13, 14]);
    expect(next[1]).toMatchObject({
      first: next[0]?.second,
      second: next[0]?.first,
      motionId: next[0]?.motionId,
    });
  });

  it('chooses the same pairing whichever debates beyond the prefix have already ended', () => {
    const choices = [upTo(8), upTo(10), [...upTo(8), 12], upTo(12)].map((ended) => {
      const state = stateWith(first, ended);
      return brief(nextRollingMatches(state, lag, ends(state)));
    });
    expect(choices[0]).toHaveLength(2);
    for (const choice of choices) expect(choice).toEqual(choices[0]);
  });

  it('reads the results of the prefix: other outcomes there give another choice somewhere along the way', () => {
    // Played on, pairing by pairing, in two worlds that differ only in their outcomes.
    const play = (strengths: SyntheticWorld['strengths']) => {
      const other = { ...world, strengths };
      let planned = [...first];
      for (let step = 0; step < 6; step++) {
        const state = stateWith(planned, []);
        for (const match of planned.filter((each) => each.index <= choicePrefix(planned.length, lag))) {
          state.ended.set(match.runId, {
            type: 'debate-end',
            at: '',
            index: match.index,
            runId: match.runId,
            status: 'completed',
            result: null,
            error: null,
            match: { ...playDebate(other, match), runId: match.runId },
            outputTokens: 0,
          });
        }
        planned = [...planned, ...nextRollingMatches(state, lag, ends(state))];
      }
      return brief(planned.slice(12));
    };
    const one = play(world.strengths);
    expect(one).toHaveLength(12);
    expect(play({ m1: -0.9, m2: -0.3, m3: 0.3, m4: 0.9 })).not.toEqual(one);
  });

  it('counts a debate that failed in this process as settled, with no result', () => {
    const state = stateWith(first, upTo(7));
    const failedHere = new Set([first[7]?.runId]);
    const settled = (match: PlannedMatch) => state.ended.has(match.runId) || failedHere.has(match.runId);
    expect(nextRollingMatches(state, lag, settled).map((match) => match.index)).toEqual([13, 14]);
  });

  it('plans nothing past the budget', () => {
    const full = adaptiveMatches({ ...spec, budget: 12 }, id, [], [], 0);
    const state = stateWith(full, upTo(12));
    state.start = { ...state.start, spec: { ...spec, budget: 13 } };
    expect(nextRollingMatches(state, lag, ends(state))).toEqual([]);
  });
});
