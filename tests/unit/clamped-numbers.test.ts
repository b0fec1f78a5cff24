import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boundedInteger, boundedNumber, boundedText } from '../../src/judging/answer-fields.js';
import { readStructuredAnswer } from '../../src/judging/structured-answer.js';

const schema = z.object({
  comments: boundedText(200),
  scores: z.object({ logic: boundedInteger(1, 5), evidence: boundedInteger(1, 5) }),
  confidence: boundedNumber(0, 100),
});

describe('numbers outside their bounds', () => {
  it('are held to the bound they crossed, each recorded with where it was', () => {
    const read = readStructuredAnswer(
      '{"comments": "Fair.", "scores": {"logic": 7, "evidence": "0"}, "confidence": -0.2}',
      schema,
    );
    expect(read).toEqual({
      ok: true,
      value: { comments: 'Fair.', scores: { logic: 5, evidence: 1 }, confidence: 0 },
      clamped: [
        { field: 'scores.logic', given: 7, kept: 5 },
        { field: 'scores.evidence', given: 0, kept: 1 },
        { field: 'confidence', given: -0.2, kept: 0 },
      ],
    });
  });

  it('an answer within its bounds records nothing', () => {
    const read = readStructuredAnswer(
      '{"comments": "Fair.", "scores": {"logic": 3, "evidence": 4}, "confidence": 80}',
      schema,
    );
    expect(read).toEqual({
      ok: true,
      value: { comments: 'Fair.', scores: { logic: 3, evidence: 4 }, confidence: 80 },
    });
  });

  it('do not excuse any other fault of the answer', () => {
    const read = readStructuredAnswer('{"scores": {"logic": 7, "evidence": 2}, "confidence": 50}', schema);
    expect(read).toMatchObject({ ok: false, cause: 'schema' });
    expect(read.ok ? '' : read.problem).toMatch(/comments/);
  });
});
