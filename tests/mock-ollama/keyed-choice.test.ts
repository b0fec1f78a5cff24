import { describe, expect, it } from 'vitest';
import { CONTRADICTION_RATE } from '../../src/mock-ollama/coherent-answer.js';
import { materialHash } from '../../src/mock-ollama/judged-level.js';
import { DRAW_SHARE, makeKeyedChoices, statedKeys } from '../../src/mock-ollama/keyed-choice.js';
import { createRng } from '../../src/mock-ollama/random.js';

const SCHEMA = {
  type: 'object',
  properties: { why: { type: 'string' }, stronger: { type: 'string', enum: ['a', 'b', 'even'] } },
};
const key = (first: string, second: string) =>
  `In your answer the two sides are named by letter:\n- "a": ${first}\n- "b": ${second}\nAnswer only with JSON.`;
const ADA = 'Ada, arguing for remote work';
const BLAISE = 'Blaise, arguing for the office';

describe('a choice the prompt defines by keys', () => {
  it('reads the keys a task defines', () => {
    expect([...statedKeys(key(ADA, BLAISE))]).toEqual([
      ['a', ADA],
      ['b', BLAISE],
    ]);
  });

  it('names the same side in both readings of a debate, by the letter each reading gives it', () => {
    let agreed = 0;
    let draws = 0;
    const debates = 2000;
    for (let i = 0; i < debates; i++) {
      const material = materialHash([`round ${i}: Ada spoke`, 'Blaise answered']);
      const pick = (task: string, seed: string) =>
        (
          makeKeyedChoices({ why: 'x', stronger: 'a' }, SCHEMA, material, task, createRng(seed)) as {
            stronger: string;
          }
        ).stronger;
      const straight = pick(key(ADA, BLAISE), `straight ${i}`);
      const swapped = pick(key(BLAISE, ADA), `swapped ${i}`);
      const flip = (letter: string) => (letter === 'a' ? 'b' : letter === 'b' ? 'a' : letter);
      if (straight === flip(swapped)) agreed += 1;
      if (straight === 'even') draws += 1;
    }
    // Each reading strays to the first letter in a small seeded share; otherwise they agree.
    expect(agreed / debates).toBeGreaterThan(1 - 3 * CONTRADICTION_RATE);
    expect(Math.abs(draws / debates - DRAW_SHARE)).toBeLessThan(0.05);
  });

  it('leaves an answer alone when the task defines no keys', () => {
    const value = { why: 'x', stronger: 'b' };
    makeKeyedChoices(
      value,
      SCHEMA,
      materialHash(['material']),
      'Answer with "a", "b" or "even".',
      createRng('s'),
    );
    expect(value.stronger).toBe('b');
  });
});
