import { describe, expect, it } from 'vitest';
import { extractKeyPoints } from '../../src/agents/key-points.js';
import { statementClaims } from '../../src/analytics/key-sentence-claims.js';
import { sentencesOf } from '../../src/core/sentences.js';

describe('sentences of a debater’s text', () => {
  it('ends a sentence at its mark before a capital, a quote or a digit, and at the end of the text', () => {
    expect(sentencesOf('The cost is real. "Pro-Life" ignores it!  2024 proved it? Yes')).toEqual([
      'The cost is real.',
      '"Pro-Life" ignores it!',
      '2024 proved it?',
      'Yes',
    ]);
  });

  it('does not end one at a title, "v.", "e.g." or initials, nor at a question quoted inside it', () => {
    const text =
      'Speaking as Dr. Hannah Lindqvist, I defend the motion. Roe v. Wade stood for decades, e.g. in the U.S. courts. The question "Why now?" has no answer.';
    expect(sentencesOf(text)).toEqual([
      'Speaking as Dr. Hannah Lindqvist, I defend the motion.',
      'Roe v. Wade stood for decades, e.g. in the U.S. courts.',
      'The question "Why now?" has no answer.',
    ]);
  });

  it('gives memory and the key-sentence claims whole sentences, never a fragment cut at "Dr."', () => {
    const statement =
      'Speaking as Dr. Hannah Lindqvist, I want to make the case for "Pro-Life" plainly.\n\nMr. Reyes said the evidence is thin, but it shows the opposite. Viability has moved earlier every decade.';
    // The self-introduction goes as a whole, not its first three words: it makes no point.
    expect(extractKeyPoints(statement, 3)).toEqual([
      'Mr. Reyes said the evidence is thin, but it shows the opposite.',
    ]);
    expect(statementClaims(statement, []).fresh).toEqual([
      'Mr. Reyes said the evidence is thin, but it shows the opposite.',
    ]);
  });
});
