import { describe, expect, it } from 'vitest';
import type { Evaluation } from '../../src/core/events.js';
import { tallyVotes } from '../../src/judging/tally.js';

const vote = (continueVote: boolean, total: number): Evaluation => ({
  round_number: 1,
  position_y_performance: {},
  total_score: total,
  comments: 'x',
  continue_vote: continueVote,
});

describe('tallyVotes', () => {
  it('rotates when rotate votes reach the threshold', () => {
    const tally = tallyVotes([vote(false, 4), vote(false, 4.5), vote(true, 5)], 2);
    expect(tally).toMatchObject({ rotateVotes: 2, continueVotes: 1, decision: 'rotate', decidedBy: 'votes' });
  });

  it('continues when rotate votes stay below the threshold', () => {
    const tally = tallyVotes([vote(false, 1), vote(true, 1), vote(true, 1)], 2);
    expect(tally).toMatchObject({ rotateVotes: 1, decision: 'continue', decidedBy: 'votes' });
  });

  it('breaks a 1-1 tie with one abstention by the mean weighted score', () => {
    const low = tallyVotes([vote(false, 2), vote(true, 3.5), null], 2);
    expect(low).toMatchObject({ abstentions: 1, meanScore: 2.75, decision: 'rotate', decidedBy: 'scores' });
    const high = tallyVotes([vote(false, 3), vote(true, 4), null], 2);
    expect(high).toMatchObject({ meanScore: 3.5, decision: 'continue', decidedBy: 'scores' });
  });

  it('continues on an exact tie at the midpoint', () => {
    const tally = tallyVotes([vote(false, 2), vote(true, 4), null], 2);
    expect(tally).toMatchObject({ meanScore: 3, decision: 'continue', decidedBy: 'exact-tie' });
  });

  it('treats all judges abstaining as an exact tie that continues', () => {
    const tally = tallyVotes([null, null, null], 2);
    expect(tally).toMatchObject({
      abstentions: 3,
      meanScore: null,
      decision: 'continue',
      decidedBy: 'exact-tie',
    });
  });

  it('lets a threshold of one rotate on a single vote even when others continue', () => {
    expect(tallyVotes([vote(false, 5), vote(true, 5)], 1).decision).toBe('rotate');
  });
});
