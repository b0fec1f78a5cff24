/**
 * The claims ledger records only what a statement says: the note-taker quotes the opening words
 * of a sentence, the quote is checked against the statement, and the claim is that whole sentence.
 */
import { describe, expect, it } from 'vitest';
import {
  claimsJsonSchema,
  MAX_CLAIMS,
  QUOTE_CHARS,
  settledClaimKinds,
  verifiedClaims,
} from '../../src/agents/claim-extraction.js';
import {
  isInStatement,
  MAX_CLAIM_TEXT,
  quotedSentence,
  sentenceOfQuote,
} from '../../src/agents/claim-quotes.js';
import { addClaims, openClaimsAgainst } from '../../src/agents/claims-ledger.js';
import { worstCaseAnswerTokens } from '../../src/judging/answer-fields.js';
import { extractHints } from '../../src/mock-ollama/prompt-text.js';
import { composeSpeech, fieldText } from '../../src/mock-ollama/prose.js';
import { QUOTE_ERROR_RATE } from '../../src/mock-ollama/quote-copy.js';
import { createRng } from '../../src/mock-ollama/random.js';

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

describe('quotes a small model copied with one mistake', () => {
  const sentence = 'Congestion charges cut traffic by a fifth in Stockholm, and the air got cleaner.';
  it('a dropped comma or a changed case is still the same words: an exact match', () => {
    expect(quotedSentence('congestion charges cut traffic by a fifth in Stockholm and', STATEMENT)).toEqual({
      sentence,
      match: 'exact',
    });
  });

  it('one word changed, left out or added finds the sentence, as a near match', () => {
    for (const quote of [
      'Congestion charges cut traffic by the fifth in Stockholm', // changed
      'Congestion charges cut traffic by fifth in Stockholm', // left out
      'Congestion charges really cut traffic by a fifth in', // added
      'Congestion fees cut traffic by a fifth', // changed, in a short quote
      'Road charges cut traffic by a fifth', // the first word changed
    ]) {
      expect(quotedSentence(quote, STATEMENT), quote).toEqual({ sentence, match: 'near' });
    }
    // A quote cut inside its last word by a length limit is still a word-for-word copy.
    expect(quotedSentence('Congestion charges cut traffic by a fifth in Stockh', STATEMENT)?.match).toBe(
      'exact',
    );
  });

  it('two mistakes, or one in a quote too short to prove anything, match nothing', () => {
    expect(sentenceOfQuote('Congestion fees cut traffic by the fifth in Stockholm', STATEMENT)).toBeNull();
    expect(sentenceOfQuote('Congestion fees cut traffic', STATEMENT)).toBeNull();
    expect(sentenceOfQuote('Congestion charges cut traffic', STATEMENT)).not.toBeNull();
    // A claim the statement never made is not near anything in it.
    expect(sentenceOfQuote('Car-free streets always ruin small family businesses', STATEMENT)).toBeNull();
    expect(sentenceOfQuote('Parking charges cut shopping by a fifth', STATEMENT)).toBeNull();
  });

  it('with one quote in four carrying such a mistake, at least 90% of the claims are kept', () => {
    const hints = {
      ...extractHints([
        { role: 'system', content: 'Motion: This house would ban private cars from city centres' },
      ]),
      quote: true,
    };
    let asked = 0;
    let kept = 0;
    let near = 0;
    let notVerbatim = 0;
    for (let index = 0; index < 400; index += 1) {
      const statement = composeSpeech(hints, createRng(`statement-${index}`), 250, 'words');
      const rng = createRng(`quote-${index}`);
      // The simulator's note-taker, as it answers an extraction call.
      const quote = fieldText({ ...hints, recent: statement }, 'quote', rng);
      asked += 1;
      if (!statement.includes(quote)) notVerbatim += 1;
      const result = verifiedClaims({ claims: [{ quote, kind: 'new', answers: 'none' }] }, statement);
      kept += result.claims.length;
      near += result.near;
      // A kept claim is always a sentence of the statement, word for word.
      for (const claim of result.claims) expect(statement.replace(/\s+/g, ' ')).toContain(claim.claim);
    }
    const share = kept / asked;
    // biome-ignore lint/suspicious/noConsole: the figure belongs in the test output
    console.log(
      `quotes: ${asked}, not verbatim: ${notVerbatim}, kept: ${kept} (${(share * 100).toFixed(1)}%), near matches: ${near}`,
    );
    expect(QUOTE_ERROR_RATE).toBe(0.25);
    // The simulator did make mistakes at about its rate, and the ledger kept the claims anyway.
    expect(notVerbatim / asked).toBeGreaterThan(0.18);
    expect(notVerbatim / asked).toBeLessThan(0.32);
    expect(near).toBeGreaterThan(0);
    expect(share).toBeGreaterThanOrEqual(0.9);
  });
});

describe('an extraction’s answer', () => {
  it('keeps each quoted sentence once, as the statement says it, and counts quotes not in it', () => {
    const { claims, unverified, near } = verifiedClaims(
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
    expect(near).toBe(0);
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

describe('sentences that quote a question', () => {
  it('a question mark inside quotes, followed by the sentence going on, does not end it', () => {
    const statement =
      'Any honest account of the question "Should cities ban cars?" has to start from air quality. Then comes cost.';
    expect(sentenceOfQuote('Any honest account of the question', statement)).toBe(
      'Any honest account of the question "Should cities ban cars?" has to start from air quality.',
    );
  });
});

describe('a statement cut by its time limit', () => {
  it('gives a claim of the words spoken, without the engine’s note', () => {
    const { claims } = verifiedClaims(
      { claims: [{ quote: 'The other side treats cities as', kind: 'new', answers: 'none' }] },
      'Cars choke centres. The other side treats cities as\n[Time limit reached]',
    );
    expect(claims.map((claim) => claim.claim)).toEqual(['The other side treats cities as']);
  });
});

describe('a sentence its side has said before', () => {
  it('is recorded as restated whatever the note-taker called it, so the open claims list the point once', () => {
    const said = 'The real choice here is between a policy that manages risk and one that hopes.';
    let ledger = addClaims([], {
      type: 'claims',
      round: 1,
      agent: 'Yara',
      position: 'Y',
      source: 'model',
      claims: [{ claim: said, kind: 'new', answers: null }],
    } as Parameters<typeof addClaims>[1]);
    const again = settledClaimKinds(
      [
        { claim: `  ${said.toUpperCase().replace('.', '')} `, kind: 'new', answers: null },
        { claim: 'Prices, not bans, move drivers.', kind: 'new', answers: null },
      ],
      ledger.filter((claim) => claim.position === 'Y'),
    );
    expect(again.map((claim) => claim.kind)).toEqual(['restated', 'new']);
    ledger = addClaims(ledger, {
      type: 'claims',
      round: 2,
      agent: 'Yusuf',
      position: 'Y',
      source: 'model',
      claims: again,
    } as Parameters<typeof addClaims>[1]);
    expect(openClaimsAgainst(ledger, 'X').map((claim) => claim.id)).toEqual(['Y2.2', 'Y1.1']);
  });

  it('is new when its side has said nothing before, whatever the note-taker called it', () => {
    const first = settledClaimKinds(
      [
        { claim: 'Prices, not bans, move drivers.', kind: 'restated', answers: 'X1.1' },
        { claim: 'Shops need parking.', kind: 'new', answers: null },
      ],
      [],
    );
    expect(first.map((claim) => claim.kind)).toEqual(['new', 'new']);
    expect(first[0]?.answers).toBe('X1.1');
  });
});
