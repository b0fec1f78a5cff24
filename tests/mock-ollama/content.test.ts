/** Unit tests for the generated content: tokenizer, prompt cues, debate prose and JSON from schemas. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { countTokens, jsonFromSchema, tokenize } from '../../src/mock-ollama/index.js';
import { keyTerms } from '../../src/mock-ollama/key-terms.js';
import { extractHints } from '../../src/mock-ollama/prompt-text.js';
import {
  composeProse,
  composeSpeech,
  composeSummary,
  fieldText,
  topicPhrase,
} from '../../src/mock-ollama/prose.js';
import { copyQuote, QUOTE_ERROR_RATE } from '../../src/mock-ollama/quote-copy.js';
import { createRng } from '../../src/mock-ollama/random.js';
import { debateMessages } from './helpers.js';

const PROSE =
  'The strongest reason to support the proposal is that it takes public health seriously. ' +
  'Independent studies of congestion charging point in one direction, and it is not the one the ' +
  'opposition suggests; cities that acted early avoided the worst outcomes.';

describe('tokenize', () => {
  it('is lossless, so content can be cut at an exact token', () => {
    const samples = [
      PROSE,
      '<|user|>\nHi!\n\n  spaced   out\t\tend',
      '{"score": 10, "ok": true}',
      'naïve café — 2024',
      '',
    ];
    for (const text of samples) expect(tokenize(text).join('')).toBe(text);
  });

  it('counts roughly 1.3 tokens per English word', () => {
    const words = PROSE.split(/\s+/).length;
    const ratio = countTokens(PROSE) / words;
    expect(ratio).toBeGreaterThan(1.1);
    expect(ratio).toBeLessThan(1.6);
  });

  it('gives a shared token prefix for a shared text prefix', () => {
    const base = '<|system|>\nMotion: cars\n<|user|>\nOpen the debate.\n';
    const a = tokenize(`${base}<|assistant|>\n`);
    const b = tokenize(`${base}<|assistant|>\nSpeech.\n<|user|>\nReply.\n`);
    expect(b.slice(0, a.length)).toEqual(a);
  });

  it('keeps chat-template markers as single tokens and splits long words', () => {
    expect(tokenize('<|assistant|>')).toEqual(['<|assistant|>']);
    expect(tokenize(' internationalisation').length).toBeGreaterThan(2);
    expect(countTokens('a b c')).toBe(3);
  });
});

describe('prompt hints', () => {
  it('reads motion, positions, name, side and background terms', () => {
    const hints = extractHints(debateMessages());
    expect(hints.motion).toBe('This house would ban private cars from city centres');
    expect(hints.positions).toEqual(['Ban private cars from city centres', 'Keep cars but price congestion']);
    expect(hints.name).toBe('Ada');
    expect(hints.side).toBe('Ban private cars from city centres');
    expect(hints.opponent).toBe('Keep cars but price congestion');
    expect(hints.terms).toEqual(expect.arrayContaining(['congestion charging', 'air pollution', 'London']));
    expect(hints.summarise).toBe(false);
  });

  it('keeps a case name whole, "v." and capitals included, and writes it so', () => {
    const background =
      "Legal precedents:\n- Roe v. Wade (1973)\n- Planned Parenthood v. Casey (1992)\n- Dobbs v. Jackson Women's Health Organization (2022)\nThe Roe v. Wade decision stood for decades.";
    const terms = keyTerms(background, 20);
    expect(terms).toEqual(
      expect.arrayContaining(['Roe v. Wade', 'Planned Parenthood v. Casey', 'Dobbs v. Jackson']),
    );
    expect(terms.filter((term) => /\bv\b(?!\.)|^v\.|v\.$/i.test(term))).toEqual([]);
    const hints = { ...extractHints(debateMessages()), terms: ['Roe v. Wade', 'Dobbs v. Jackson'] };
    const speeches = Array.from({ length: 8 }, (_, i) => composeSpeech(hints, createRng(`v${i}`), 300)).join(
      '\n',
    );
    expect(speeches).toMatch(/Roe v\. Wade|Dobbs v\. Jackson/);
    expect(speeches).not.toMatch(/\b(?:roe|dobbs) v\b/);
  });

  it('takes no term from the background heading’s note or from the path of included notes', () => {
    const hints = extractHints([
      {
        role: 'system',
        content:
          'Motion: Should abortion be legal?\nBackground (shared by every participant)\n- key concepts: fetal viability; maternal health\n### context/abortion/background.md\nRoe v. Wade (1973) set a trimester framework.',
      },
      { role: 'user', content: 'Your name: Ada' },
    ]);
    expect(hints.terms).toEqual(
      expect.arrayContaining(['fetal viability', 'maternal health', 'Roe v. Wade']),
    );
    expect(hints.terms.join('|')).not.toMatch(/participant|context|\.md/);
  });

  it('detects a request to summarise in the final message', () => {
    expect(extractHints(debateMessages({ ask: 'Summarise the debate so far.' })).summarise).toBe(true);
    expect(extractHints(debateMessages({ ask: 'Please summarize.' })).summarise).toBe(true);
  });
});

describe('debate prose', () => {
  it('writes an on-topic speech for the given side that rebuts the other side', () => {
    const hints = extractHints(debateMessages());
    const speeches = Array.from({ length: 6 }, (_, i) => composeSpeech(hints, createRng(`s${i}`), 200)).join(
      '\n',
    );
    expect(speeches).toContain('"Ban private cars from city centres"');
    expect(speeches).toContain('"Keep cars but price congestion"');
    expect(speeches).toMatch(/congestion charging|air pollution|public health|London|Oslo/);
    expect(speeches).not.toMatch(/\{\w+\}/);
  });

  it('aims for the requested length and ends with a full sentence', () => {
    const hints = extractHints(debateMessages());
    const speech = composeSpeech(hints, createRng('len'), 150);
    expect(countTokens(speech)).toBeGreaterThan(110);
    expect(countTokens(speech)).toBeLessThan(240);
    expect(speech.trim()).toMatch(/[.?!]$/);
    expect(speech).toContain('\n\n');
  });

  it('writes speeches of a realistic length in words when asked', () => {
    const hints = extractHints(debateMessages());
    for (const seed of ['a', 'b', 'c', 'd']) {
      const words = composeProse(hints, createRng(seed), { minWords: 350, maxWords: 650 }).split(
        /\s+/,
      ).length;
      expect(words).toBeGreaterThan(320);
      expect(words).toBeLessThan(700);
    }
  });

  it('writes a summary of 60-120 words a round it covers, as small models do, whatever length was asked', () => {
    const ask = '## Your task: the summary of rounds 1-3\nWrite at most about 300 words.';
    const hints = extractHints(debateMessages({ ask }));
    expect(hints).toMatchObject({ summarise: true, words: 300, summaryRounds: 3 });
    const summary = composeProse(hints, createRng('long'), { minWords: 350, maxWords: 650 });
    expect(summary).toContain('Ban private cars from city centres');
    for (const [label, rounds] of [
      ['round 4', 1],
      ['rounds 1-3', 3],
      ['rounds 1-8', 8],
    ] as const) {
      const asked = extractHints(
        debateMessages({ ask: `## Your task: the summary of ${label}\nSummarise ${label} above.` }),
      );
      expect(asked.summaryRounds).toBe(rounds);
      const perRound: number[] = [];
      for (const seed of ['a', 'b', 'c', 'd', 'e', 'f']) {
        for (const speech of [undefined, { minWords: 350, maxWords: 650 }]) {
          const words = composeProse(asked, createRng(`${label}-${seed}`), speech).split(/\s+/).length;
          perRound.push(words / rounds);
        }
      }
      // A sentence more or less than the draw: 60-120 words a round, give or take one sentence.
      expect(Math.min(...perRound)).toBeGreaterThanOrEqual(60 - 30 / rounds);
      expect(Math.max(...perRound)).toBeLessThanOrEqual(120 + 30 / rounds);
    }
  });

  it('writes statements in whole sentences', () => {
    const hints = extractHints(debateMessages());
    for (const seed of ['a', 'b', 'c']) {
      const speech = composeProse(hints, createRng(seed), { minWords: 350, maxWords: 650 });
      for (const paragraph of speech.split('\n\n')) expect(paragraph.trim()).toMatch(/^[A-Z"].*[.?!"]$/s);
    }
  });

  it('summarises both positions compactly when asked', () => {
    const hints = extractHints(debateMessages({ ask: 'Summarise the debate.' }));
    const summary = composeProse(hints, createRng('sum'));
    expect(summary).toMatch(/^Summary|^In short/);
    expect(summary).toContain('Ban private cars from city centres');
    expect(summary).toContain('Keep cars but price congestion');
    expect(countTokens(summary)).toBeLessThan(150);
  });

  it('falls back to generic wording without debate cues', () => {
    const hints = extractHints([{ role: 'user', content: 'hello' }]);
    const text = composeSummary(hints, createRng('generic')) + composeSpeech(hints, createRng('g'), 120);
    expect(text).toMatch(/the proposition|the opposition|the motion before us/);
    expect(text).not.toMatch(/undefined|\{\w+\}/);
  });

  it('turns common motion shapes into readable noun phrases', () => {
    expect(topicPhrase('This house would tax sugar.')).toBe('the proposal to tax sugar');
    expect(topicPhrase('This House believes that cities need fewer cars')).toBe(
      'the claim that cities need fewer cars',
    );
    expect(topicPhrase('Should voting be compulsory?')).toBe('the question "Should voting be compulsory?"');
    expect(topicPhrase('Universal basic income')).toBe('universal basic income');
    expect(topicPhrase(undefined)).toBe('the motion before us');
  });
});

const verdict = z.object({
  winner: z.enum(['X', 'Y']),
  score: z.int().min(1).max(10),
  confidence: z.number().min(0).max(1),
  unanimous: z.boolean(),
  comments: z.string().min(20).max(160),
  points: z
    .array(z.object({ speaker: z.string(), mark: z.int().min(0).max(5) }))
    .min(2)
    .max(4),
  note: z.string().nullable(),
  verdictType: z.literal('final'),
  extra: z.string().optional(),
});

describe('jsonFromSchema', () => {
  it('produces values that satisfy a zod-generated schema, for many seeds', () => {
    const schema = z.toJSONSchema(verdict);
    for (let seed = 0; seed < 40; seed++) {
      const value = jsonFromSchema(schema, createRng(`seed-${seed}`));
      const parsed = verdict.safeParse(value);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    }
  });

  it('is deterministic for a seed and varies across seeds', () => {
    const schema = z.toJSONSchema(verdict);
    const a = jsonFromSchema(schema, createRng('one'));
    expect(jsonFromSchema(schema, createRng('one'))).toEqual(a);
    const others = Array.from({ length: 5 }, (_, i) =>
      JSON.stringify(jsonFromSchema(schema, createRng(`o${i}`))),
    );
    expect(new Set(others).size).toBeGreaterThan(1);
  });

  it('handles refs, anyOf, exclusive bounds and tuple items', () => {
    const schema = {
      $defs: { Side: { type: 'string', enum: ['pro', 'con'] } },
      type: 'object',
      properties: {
        side: { $ref: '#/$defs/Side' },
        either: { anyOf: [{ type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 3 }, { type: 'null' }] },
        pair: {
          type: 'array',
          prefixItems: [{ type: 'string' }, { type: 'boolean' }],
          minItems: 2,
          maxItems: 2,
        },
      },
      required: ['side', 'either', 'pair'],
    };
    for (let seed = 0; seed < 20; seed++) {
      const value = jsonFromSchema(schema, createRng(`r${seed}`)) as Record<string, unknown>;
      expect(['pro', 'con']).toContain(value.side);
      expect(value.either === null || value.either === 1 || value.either === 2).toBe(true);
      const pair = value.pair as unknown[];
      expect(pair).toHaveLength(2);
      expect(typeof pair[0]).toBe('string');
      expect(typeof pair[1]).toBe('boolean');
    }
  });

  it('honours common string formats', () => {
    const shape = z.object({
      at: z.iso.datetime(),
      on: z.iso.date(),
      mail: z.email(),
      id: z.uuid(),
      link: z.url(),
    });
    const schema = z.toJSONSchema(shape);
    for (let seed = 0; seed < 10; seed++) {
      expect(shape.safeParse(jsonFromSchema(schema, createRng(`f${seed}`))).success).toBe(true);
    }
  });

  it('uses the text source for string properties, passing the property name', () => {
    const seen: (string | undefined)[] = [];
    const value = jsonFromSchema(
      { type: 'object', properties: { comments: { type: 'string' } }, required: ['comments'] },
      createRng('t'),
      (property) => {
        seen.push(property);
        return 'A clear critique.';
      },
    );
    expect(value).toEqual({ comments: 'A clear critique.' });
    expect(seen).toEqual(['comments']);
  });
});

describe('a note-taker’s quotes', () => {
  const sentence = 'Congestion charges cut traffic by a fifth in Stockholm, and the air got cleaner.';
  it('copies the first 6 to 10 words, with one small mistake in about one quote in four by default', () => {
    const quotes = Array.from({ length: 400 }, (_, index) => copyQuote(sentence, createRng(`q${index}`)));
    const wrong = quotes.filter((quote) => !sentence.startsWith(quote));
    expect(QUOTE_ERROR_RATE).toBe(0.25);
    expect(wrong.length / quotes.length).toBeGreaterThan(0.18);
    expect(wrong.length / quotes.length).toBeLessThan(0.32);
    for (const quote of quotes) {
      const words = quote.split(' ').length;
      expect(words).toBeGreaterThanOrEqual(5);
      expect(words).toBeLessThanOrEqual(10);
    }
    // Each kind of mistake a small model makes: a comma left out, the case changed, a word changed or left out.
    expect(wrong.some((quote) => quote.includes('Stockholm and'))).toBe(true);
    expect(wrong.some((quote) => quote.startsWith('congestion'))).toBe(true);
    expect(wrong.some((quote) => / the fifth|traffic for a| on Stockholm/.test(quote))).toBe(true);
    expect(
      wrong.some(
        (quote) =>
          quote.split(' ').length < 10 &&
          !sentence.includes(quote.split(' ').slice(0, 5).join(' ')) &&
          quote.startsWith('Congestion'),
      ),
    ).toBe(true);
  });

  it('copies every quote exactly at a rate of 0, and answers an extraction call with them', () => {
    for (let index = 0; index < 50; index += 1) {
      expect(sentence.startsWith(copyQuote(sentence, createRng(`q${index}`), 0))).toBe(true);
    }
    const hints = { ...extractHints(debateMessages()), quote: true, recent: sentence };
    expect(sentence.startsWith(fieldText(hints, 'quote', createRng('x'), 0))).toBe(true);
  });
});
