import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readStructuredAnswer } from '../../src/judging/structured-answer.js';

const schema = z.object({ reasoning: z.string(), winner: z.enum(['a', 'b']) });

// Sixteen tokens or so of an object the model itself ended: the server said `stop`, not `length`.
const UNCLOSED = '{"reasoning": "Both sides argued well but a was clearer", "winner": "a"';

describe('the cause of an unusable structured answer', () => {
  it('an unclosed object that stopped normally is unusable JSON, not a cut at the token cap', () => {
    const read = readStructuredAnswer(UNCLOSED, schema, 'stop');
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.cause).toBe('not-json');
    expect(read.problem).not.toMatch(/cut off|token cap:/);
    expect(read.problem).toMatch(/not closed|before its JSON object was closed/);
  });

  it('the same unclosed object cut by the server at its cap is a cut at the token cap', () => {
    const read = readStructuredAnswer(UNCLOSED, schema, 'length');
    expect(read).toEqual({
      ok: false,
      cause: 'cut-at-cap',
      problem: 'the answer was cut off at its token cap: the JSON object is not closed',
    });
  });

  it('a closed object that is not JSON stays unusable JSON, whatever the stop', () => {
    const read = readStructuredAnswer('{"reasoning": fine, "winner": "a"}', schema, 'stop');
    expect(read).toMatchObject({ ok: false, cause: 'not-json', problem: 'the answer is not valid JSON' });
  });
});
