import { describe, expect, it } from 'vitest';
import {
  checkQuotes,
  markQuotesForJudge,
  normalisedWords,
} from '../../src/formats/truth/quote-verification.js';

const PASSAGE = [
  "Tomas's sister, Mara, had left Eskdale long ago and worked in the city as a bookbinder.",
  'She was 41 that spring when she came back to sell the family house.',
  '',
  'After 3 nights in Ghent I took the night bus to Porto. The market was busy.',
].join('\n');

const verdicts = (statement: string) => checkQuotes(statement, PASSAGE).map((quote) => quote.verdict);

describe('quote verification', () => {
  it('verifies a quote that differs only in case, punctuation, quote marks and spaces', () => {
    expect(verdicts('As it says, <quote>she was 41 that spring</quote>.')).toEqual(['verified']);
    expect(verdicts('<quote>SHE WAS 41, THAT SPRING!</quote>')).toEqual(['verified']);
    expect(verdicts('<quote>Tomas’s sister, Mara, had left Eskdale</quote>')).toEqual(['verified']);
    expect(verdicts('<quote>“worked in the   city as a bookbinder”</quote>')).toEqual(['verified']);
  });

  it('verifies a quote that spans a sentence or a paragraph break', () => {
    expect(verdicts('<quote>as a bookbinder. She was 41</quote>')).toEqual(['verified']);
    expect(verdicts('<quote>sell the family house After 3 nights in Ghent</quote>')).toEqual(['verified']);
  });

  it('calls a quote one word off a near miss: changed, added or left out', () => {
    const changed = checkQuotes('<quote>she was 43 that spring when</quote>', PASSAGE)[0];
    expect(changed).toEqual({
      text: 'she was 43 that spring when',
      verdict: 'near-miss',
      closest: 'she was 41 that spring when',
    });
    expect(verdicts('<quote>After 3 nights in Ghent I took the bus to Porto</quote>')).toEqual(['near-miss']);
    expect(verdicts('<quote>After 3 long nights in Ghent I took</quote>')).toEqual(['near-miss']);
  });

  it('leaves anything further off, or too short to tell, unverified', () => {
    expect(verdicts('<quote>she was 43 that summer when</quote>')).toEqual(['unverified']);
    expect(verdicts('<quote>After 5 nights in Lyon I took the train</quote>')).toEqual(['unverified']);
    expect(verdicts('<quote>was 43</quote>')).toEqual(['unverified']);
    expect(verdicts('<quote></quote>')).toEqual(['unverified']);
  });

  it('reads every marked quote, an unclosed one to the end of its line, and nothing unmarked', () => {
    const statement = [
      'Two things: <quote>The market was busy.</quote> and <QUOTE>had left Eskdale long ago</QUOTE>.',
      'Then <quote>she came back to sell the family house',
      'and "Mara, had left Eskdale" in plain marks, which is not a marked quote.',
    ].join('\n');
    const quotes = checkQuotes(statement, PASSAGE);
    expect(quotes.map((quote) => [quote.text, quote.verdict])).toEqual([
      ['The market was busy.', 'verified'],
      ['had left Eskdale long ago', 'verified'],
      ['she came back to sell the family house', 'verified'],
    ]);
  });

  it('marks each quote for the judge as verified or not, keeping the rest of the statement', () => {
    const statement = 'First <quote>the market was busy</quote>, then <quote>the market was empty</quote>.';
    expect(markQuotesForJudge(statement, PASSAGE)).toBe(
      'First <v_quote>the market was busy</v_quote>, then <u_quote>the market was empty</u_quote>.',
    );
    expect(markQuotesForJudge('No quotes here.', PASSAGE)).toBe('No quotes here.');
  });

  it('compares words without case, marks or apostrophes', () => {
    expect(normalisedWords('  Tomas’s   “House”—sold! ')).toEqual(['tomass', 'house', 'sold']);
  });
});
