import { describe, expect, it } from 'vitest';
import { decideRotation, type RotationInput } from '../../src/rotation/rotation-policy.js';

const base: RotationInput = {
  decision: 'rotate',
  roundsRemain: true,
  round: 2,
  current: 'B',
  yAgents: ['A', 'B', 'C', 'D'],
  debated: new Set(['A', 'B']),
  rotationsSoFar: 1,
  limit: 3,
  seed: 7,
};

describe('decideRotation', () => {
  it('keeps the debater when the decision is continue', () => {
    expect(decideRotation({ ...base, decision: 'continue' })).toEqual({
      outcome: 'continue',
      rotation: null,
    });
  });

  it('only picks judges who have not debated yet', () => {
    for (let seed = 0; seed < 50; seed += 1) {
      const result = decideRotation({ ...base, seed });
      expect(result.outcome).toBe('rotation');
      expect(['C', 'D']).toContain(result.rotation?.to);
      expect(result.rotation?.from).toBe('B');
    }
  });

  it('is fixed by the seed and the round, and differs across seeds', () => {
    const first = decideRotation(base);
    expect(decideRotation(base)).toEqual(first);
    const picks = new Set(
      Array.from({ length: 30 }, (_, seed) => decideRotation({ ...base, seed }).rotation?.to),
    );
    expect(picks).toEqual(new Set(['C', 'D']));
  });

  it('stops at the rotation limit', () => {
    expect(decideRotation({ ...base, rotationsSoFar: 3 })).toEqual({
      outcome: 'rotation-limit-reached',
      rotation: null,
    });
  });

  it('keeps the debater when every other Y has debated', () => {
    const result = decideRotation({ ...base, debated: new Set(['A', 'B', 'C', 'D']) });
    expect(result).toEqual({ outcome: 'nobody-eligible', rotation: null });
  });

  it('brings nobody in after the final round', () => {
    expect(decideRotation({ ...base, roundsRemain: false })).toEqual({
      outcome: 'debate-over',
      rotation: null,
    });
  });
});
