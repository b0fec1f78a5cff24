import { describe, expect, it } from 'vitest';
import { clipText } from '../../src/core/text-layout.js';

describe('clipText', () => {
  it('keeps text that fits, on one line', () => {
    expect(clipText('  The real\n cost  ', 20)).toBe('The real cost');
  });

  it('cuts at a word boundary and marks the cut with an ellipsis', () => {
    const claim = 'The real choice here is between a policy that manages risk and one that simply hopes';
    const clipped = clipText(claim, 40);
    expect(clipped).toBe('The real choice here is between a…');
    expect(Array.from(clipped).length).toBeLessThanOrEqual(40);
    expect(claim.startsWith(clipped.slice(0, -1))).toBe(true);
  });

  it('drops a dangling comma or dash before the ellipsis', () => {
    expect(clipText('First, second, third and fourth', 16)).toBe('First, second…');
    expect(clipText('Costs — and benefits of it all', 10)).toBe('Costs…');
  });

  it('cuts inside a word only when one word is longer than a third of the room', () => {
    expect(clipText('Supercalifragilisticexpialidocious is long', 12)).toBe('Supercalifr…');
  });

  it('never splits a character in two', () => {
    expect(clipText('😀😀😀😀😀😀😀😀', 5)).toBe('😀😀😀😀…');
  });
});
