/**
 * The claims ledger records only what a statement says: the note-taker quotes the opening words
 * of a sentence, the quote is checked against the statement, and the claim is that whole sentence.
 */
import { describe, expect, it } from 'vitest';
import {
  claimsJsonSchema,
  MAX_CLAIMS,
  QUOTE_CHARS,
  verifiedClaims,
} from '../../src/agents/claim-extraction.js';
import { isInStatement, MAX_CLAIM_TEXT, sentenceOfQuote } from '../../src/agents/claim-quotes.js';
import { worstCaseAnswerTokens } from '../../src/judging/answer-fields.js';

const STATEMENT = [
  'Good evening. Congestion charges cut traffic by a fifth in Stockholm, and the air got cleaner.',
  'As Dr. Okafor conceded, the courts in Roe v. Wade did not settle the matter for good. Shops in “pedestrian” streets gain customers!',
  '',
  'Footfall rose   by 30% in the first year',
].join(' ');

describe('quotes and their sentences', () => {
  it('a quote of a sentence’s first words stands for the whole sentence', () => {
    expect(sentenceOfQuote('Congestion charges cut traffic by a fifth', STATEMENT)).toBe(
      'Congestion charges cut traffic by a fifth in Stockholm, and the air got cleaner.',
    );
    // Curly quotes, case and runs of spaces do not stop a match; the sentence is the speaker's own.
    expect(sentenceOfQuote('shops in "pedestrian" streets gain', STATEMENT)).toBe(
      'Shops in “pedestrian” streets gain customers!',
    );
    expect(sentenceOfQuote('Footfall rose by 30% in the', STATEMENT)).toBe(
      'Footfall rose by 30% in the first year',
    );
  });

  it('a full stop after a title or in a case name does not end the sentence', () => {
    expect(sentenceOfQuote('the courts in Roe v. Wade did not', STATEMENT)).toBe(
      'As Dr. Okafor conceded, the courts in Roe v. Wade did not settle the matter for good.',
    );
  });

  it('a quote that is not in the statement, or too short to prove anything, stands for nothing', () => {
    expect(sentenceOfQuote('Car-friendly cities deliver more of what people need', STATEMENT)).toBeNull();
    expect(isInStatement('Good evening.', STATEMENT)).toBe(false);
    // Parts between elisions must come in the statement's order.
    expect(isInStatement('Congestion charges ... the air got cleaner', STATEMENT)).toBe(true);
    expect(isInStatement('the air got cleaner ... Congestion charges cut', STATEMENT)).toBe(false);
  });

  it('a very long sentence is cut at a word and marked', () => {
    const long = `We know this because ${'the evidence keeps pointing the same way and '.repeat(12)}nobody disputes it.`;
    const claim = sentenceOfQuote('We know this because the evidence keeps', long) ?? '';
    expect(claim.length).toBeLessThanOrEqual(MAX_CLAIM_TEXT);
    expect(claim.endsWith('…')).toBe(true);
    expect(long.startsWith(claim.slice(0, -1).trimEnd())).toBe(true);
  });
});

describe('an extraction’s answer', () => {
  it('keeps each quoted sentence once, as the statement says it, and counts quotes not in it', () => {
    const { claims, unverified } = verifiedClaims(
      {
        claims: [
          { quote: 'Congestion charges cut traffic by a fifth', kind: 'new', answers: 'Y1.2' },
          { quote: 'charges cut traffic by a fifth in Stockholm', kind: 'new', answers: 'none' },
          { quote: 'Car-friendly cities deliver more of what', kind: 'new', answers: 'none' },
          { quote: 'Shops in pedestrian streets gain customers', kind: 'restated', answers: 'none' },
        ],
      },
      STATEMENT,
    );
    expect(unverified).toBe(1);
    expect(claims).toEqual([
      {
        claim: 'Congestion charges cut traffic by a fifth in Stockholm, and the air got cleaner.',
        kind: 'new',
        answers: 'Y1.2',
      },
      { claim: 'Shops in “pedestrian” streets gain customers!', kind: 'restated', answers: null },
    ]);
  });

  it('is small: a few quoted claims with a kind and a link, no evidence, and its worst case fits the cap', () => {
    const schema = claimsJsonSchema(['Y1.1', 'Y1.2'], 240) as {
      properties: {
        claims: { maxItems: number; items: { properties: Record<string, { maxLength?: number }> } };
      };
    };
    const item = schema.properties.claims.items.properties;
    expect(Object.keys(item)).toEqual(['quote', 'kind', 'answers']);
    expect(item.quote?.maxLength).toBe(QUOTE_CHARS);
    expect(QUOTE_CHARS).toBeLessThanOrEqual(64);
    expect(schema.properties.claims.maxItems).toBe(MAX_CLAIMS);
    expect(MAX_CLAIMS).toBeLessThanOrEqual(3);
    expect(worstCaseAnswerTokens(schema)).toBeLessThanOrEqual(240);
    // A tighter cap lists fewer claims rather than risk an answer cut in its middle.
    const tight = claimsJsonSchema(['Y1.1'], 130) as typeof schema;
    expect(tight.properties.claims.maxItems).toBeLessThan(MAX_CLAIMS);
    expect(worstCaseAnswerTokens(tight)).toBeLessThanOrEqual(130);
  });
});
