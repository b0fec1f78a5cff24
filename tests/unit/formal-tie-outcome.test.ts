import { describe, expect, it } from 'vitest';
import { whoWon } from '../../src/formats/outcome-line.js';

const record = (verdict: Record<string, unknown>) => ({
  status: 'completed',
  stopReason: 'finished',
  positions: { affirmative: 'Ban cars', negative: 'Keep cars' },
  sides: { affirmative: { name: 'Ada' }, negative: { name: 'Blaise' } },
  verdictEnabled: true,
  verdict: { abstained: false, reasons: 'Closer to the question', ...verdict },
});

describe('a formal verdict won on tied totals', () => {
  it('with one reading, says the judge named the winner', () => {
    expect(
      whoWon('formal', record({ winner: 'negative', totals: { affirmative: 3.6, negative: 3.6 } })),
    ).toBe(
      "Blaise (negative: Keep cars) wins the judge's verdict on the winner it named: the weighted totals tie, 3.60 to 3.60, and it named negative: Closer to the question.",
    );
  });

  it('with side swap, says the other reading favoured the winner on its totals', () => {
    const sentence = whoWon(
      'formal',
      record({
        winner: 'negative',
        totals: { affirmative: 3.6, negative: 3.6 },
        side_swap: {
          agreed: true,
          picks: ['negative', 'negative'],
          answers: [
            { totals: { affirmative: 3.6, negative: 3.6 } },
            { totals: { affirmative: 3.4, negative: 3.8 } },
          ],
        },
      }),
    );
    expect(sentence).toBe(
      "Blaise (negative: Keep cars) wins the judge's verdict on the winner it named: the weighted totals tie, 3.60 to 3.60, in the first reading, and favour negative in the second (the sides in swapped order), 3.40 to 3.80: Closer to the question.",
    );
  });

  it('a win on unequal totals reads as before', () => {
    expect(
      whoWon('formal', record({ winner: 'affirmative', totals: { affirmative: 3.8, negative: 3.6 } })),
    ).toBe(
      "Ada (affirmative: Ban cars) wins the judge's verdict, 3.80 to 3.60 on the weighted criteria: Closer to the question.",
    );
  });
});
