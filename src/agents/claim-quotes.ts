/**
 * Quotes checked against the statement they came from. The note-taker copies the first words of the
 * sentence that makes a claim; the quote is compared with the statement word by word (case and
 * punctuation ignored, the words in order), and the claim the ledger records is the whole sentence
 * of the statement that the quote is taken from, so a claim is always the speaker's own words, and a
 * short quote is all the model has to write.
 *
 * A small model copying words often gets one of them wrong: it writes "a" for "the", leaves a word
 * out, or adds one. A quote of at least NEAR_MIN_WORDS words that differs from the statement by one
 * such word still finds its sentence, and is counted as a near match; a quote further from every
 * sentence than that matches nothing.
 */
import { sentenceEnds } from '../core/sentences.js';

/** A claim's text is at most this long; a longer sentence is cut at a word and marked with "…". */
export const MAX_CLAIM_TEXT = 300;

/** A quote needs at least this many words to prove anything. */
const MIN_QUOTE_WORDS = 4;
/** A quote with one word changed, missing or added needs this many words: four of them still agree. */
export const NEAR_MIN_WORDS = 5;

/**
 * A word as compared: lower case, without apostrophes or inner hyphens ("Don't" and "dont" are one
 * word, and so are "trade-offs" and "tradeoffs").
 */
interface Word {
  text: string;
  /** Where it is in the original text: its first character, and after its last. */
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+(?:['\u2019-][\p{L}\p{N}]+)*/gu;

function wordsOf(text: string): Word[] {
  return [...text.matchAll(WORD)].map((match) => ({
    text: match[0].replace(/['\u2019-]/g, '').toLowerCase(),
    start: match.index ?? 0,
    end: (match.index ?? 0) + match[0].length,
  }));
}

/** The words of each part of a quote between "..." elisions. */
function quoteParts(quote: string): string[][] {
  return quote
    .split(/\.\.\.|…/)
    .map((part) => wordsOf(part).map((word) => word.text))
    .filter((part) => part.length > 0);
}

/** How a quote matched its statement: word for word, or with one word changed, missing or added. */
export type QuoteMatch = 'exact' | 'near';

interface Found {
  /** Index of the first and after the last statement word matched. */
  first: number;
  after: number;
  edits: number;
}

/**
 * The earliest place at or after `from` where `part` matches the statement's words with at most
 * `budget` word edits (a word changed, left out or added), fewest edits first. The quote's last
 * word may be the start of the statement's word: a length limit can cut a quote inside a word.
 */
function findPart(
  part: readonly string[],
  words: readonly Word[],
  from: number,
  budget: number,
): Found | null {
  const last = part.length - 1;
  const same = (index: number, word: Word) =>
    part[index] === word.text || (index === last && word.text.startsWith(part[index] as string));
  // Exact first: the words in a row.
  for (let at = from; at + part.length <= words.length; at += 1) {
    if (part.every((_word, index) => same(index, words[at + index] as Word))) {
      return { first: at, after: at + part.length, edits: 0 };
    }
  }
  if (budget === 0) return null;
  // Then with edits: the word-level edit distance of the part to a run of the statement's words
  // that may start anywhere (cost[i][j]: the part's first i words against words ending before j).
  const columns = words.length - from + 1;
  let cost = new Array<number>(columns).fill(0);
  let start = Array.from({ length: columns }, (_v, j) => j);
  for (let i = 0; i < part.length; i += 1) {
    const nextCost = new Array<number>(columns).fill(0);
    const nextStart = new Array<number>(columns).fill(0);
    nextCost[0] = i + 1;
    nextStart[0] = 0;
    for (let j = 1; j < columns; j += 1) {
      const match = (cost[j - 1] as number) + (same(i, words[from + j - 1] as Word) ? 0 : 1);
      const added = (cost[j] as number) + 1; // a word of the quote the statement does not have
      const missing = (nextCost[j - 1] as number) + 1; // a word of the statement the quote leaves out
      const best = Math.min(match, added, missing);
      nextCost[j] = best;
      nextStart[j] =
        best === match
          ? (start[j - 1] as number)
          : best === added
            ? (start[j] as number)
            : (nextStart[j - 1] as number);
    }
    cost = nextCost;
    start = nextStart;
  }
  for (let j = 1; j < columns; j += 1) {
    const edits = cost[j] as number;
    const first = from + (start[j] as number);
    if (edits <= budget && first < from + j) return { first, after: from + j, edits };
  }
  return null;
}

/**
 * Where the quote is in the statement (original indices: its first character, after its last) and
 * how it matched, or null. Every part between "..." elisions must be there, in order; one word in
 * all of them may differ when the quote has at least NEAR_MIN_WORDS words.
 */
export function quoteSpan(
  quote: string,
  statement: string,
): { start: number; end: number; match: QuoteMatch } | null {
  const parts = quoteParts(quote);
  const count = parts.reduce((sum, part) => sum + part.length, 0);
  if (count < MIN_QUOTE_WORDS) return null;
  const words = wordsOf(statement);
  let budget = count >= NEAR_MIN_WORDS ? 1 : 0;
  let from = 0;
  let first = -1;
  let edits = 0;
  for (const part of parts) {
    const found = findPart(part, words, from, budget);
    if (found === null) return null;
    if (first === -1) first = found.first;
    from = found.after;
    budget -= found.edits;
    edits += found.edits;
  }
  return {
    start: (words[first] as Word).start,
    end: (words[from - 1] as Word).end,
    match: edits === 0 ? 'exact' : 'near',
  };
}

/** True when `quote` is the statement's own words (every part between "..." elisions, in order). */
export function isInStatement(quote: string, statement: string): boolean {
  return quoteSpan(quote, statement) !== null;
}

/**
 * The statement's sentence (or sentences) that the quote is taken from: from the start of the
 * sentence it begins in to the end of the sentence it ends in, spaces made single; null when the
 * quote is not in the statement. A sentence over MAX_CLAIM_TEXT characters is cut at a word.
 */
export function sentenceOfQuote(quote: string, statement: string): string | null {
  return quotedSentence(quote, statement)?.sentence ?? null;
}

/** The sentence of `statement` that `quote` is taken from (see `sentenceOfQuote`), and how it matched. */
export function quotedSentence(
  quote: string,
  statement: string,
): { sentence: string; match: QuoteMatch } | null {
  const span = quoteSpan(quote, statement);
  if (span === null) return null;
  let start = 0;
  let end = statement.length;
  for (const after of sentenceEnds(statement)) {
    if (after <= span.start) start = after;
    else if (after >= span.end) {
      end = after;
      break;
    }
  }
  // A paragraph break also ends a sentence (a heading or a line without a full stop).
  const before = statement.lastIndexOf('\n\n', span.start);
  if (before >= start) start = before;
  const breakAfter = statement.indexOf('\n\n', span.end);
  if (breakAfter !== -1 && breakAfter < end) end = breakAfter;
  const sentence = statement.slice(start, end).replace(/\s+/g, ' ').trim();
  if (sentence.length <= MAX_CLAIM_TEXT) return { sentence, match: span.match };
  const cut = sentence.slice(0, MAX_CLAIM_TEXT - 1);
  return { sentence: `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1)).trimEnd()}…`, match: span.match };
}

/** A claim's text as a key: the same sentence listed twice is one claim. */
export function claimKey(text: string): string {
  return wordsOf(text)
    .map((word) => word.text)
    .join(' ');
}
