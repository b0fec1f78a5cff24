/**
 * Quotes checked against the passage. A debater quotes the passage as <quote>...</quote>; each quote is
 * compared with the passage after normalising case, quote marks, punctuation and spaces, so a quote
 * that differs only in those is verified, and one that spans a sentence break still matches. A quote
 * one word away from the passage (a word changed, added or left out) is a near miss: reported as
 * such, and shown to the judge as unverified like any other quote that is not in the passage.
 */

export type QuoteVerdict = 'verified' | 'near-miss' | 'unverified';

export interface CheckedQuote {
  /** The quote as the debater wrote it, between the marks. */
  text: string;
  verdict: QuoteVerdict;
  /** For a near miss: the passage's words it came closest to. */
  closest?: string;
}

/** Quotes shorter than this many words are never called near misses: too many places look alike. */
const NEAR_MISS_MIN_WORDS = 4;

const OPEN = '<quote>';
const CLOSE = '</quote>';

/** The words of a text, compared as the check compares them. */
export function normalisedWords(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      // Apostrophes are dropped ("Tomas’s" and "Tomas's" both read "tomass"); every other mark is a space.
      .replace(/['\u2018\u2019\u201a\u201b\u2032`]/g, '')
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()
      .split(' ')
      .filter((word) => word !== '')
  );
}

const same = (a: string[], aFrom: number, b: string[], bFrom: number, length: number) => {
  for (let at = 0; at < length; at += 1) if (a[aFrom + at] !== b[bFrom + at]) return false;
  return true;
};

/** Where the quote's words stand in the passage's, exactly; -1 if nowhere. */
function exactAt(quote: string[], passage: string[]): number {
  for (let start = 0; start + quote.length <= passage.length; start += 1) {
    if (same(quote, 0, passage, start, quote.length)) return start;
  }
  return -1;
}

/**
 * The passage's words the quote is one word away from (one changed, one added, one left out),
 * or null. Checks every place in the passage.
 */
function oneWordAway(quote: string[], passage: string[]): string[] | null {
  const n = quote.length;
  for (let start = 0; start < passage.length; start += 1) {
    // One word changed: n passage words, all but one equal.
    if (start + n <= passage.length) {
      let differ = 0;
      for (let at = 0; at < n && differ <= 1; at += 1) if (quote[at] !== passage[start + at]) differ += 1;
      if (differ === 1) return passage.slice(start, start + n);
    }
    // One passage word left out of the quote: n + 1 passage words.
    if (start + n + 1 <= passage.length) {
      for (let skip = 1; skip < n; skip += 1) {
        if (same(quote, 0, passage, start, skip) && same(quote, skip, passage, start + skip + 1, n - skip)) {
          return passage.slice(start, start + n + 1);
        }
      }
    }
    // One word added in the quote: n - 1 passage words.
    if (start + n - 1 <= passage.length) {
      for (let extra = 1; extra < n - 1; extra += 1) {
        if (
          same(quote, 0, passage, start, extra) &&
          same(quote, extra + 1, passage, start + extra, n - extra - 1)
        ) {
          return passage.slice(start, start + n - 1);
        }
      }
    }
  }
  return null;
}

/** One quote checked against the passage's words. */
export function checkQuote(text: string, passageWords: string[]): CheckedQuote {
  const words = normalisedWords(text);
  if (words.length === 0) return { text, verdict: 'unverified' };
  if (exactAt(words, passageWords) >= 0) return { text, verdict: 'verified' };
  if (words.length >= NEAR_MISS_MIN_WORDS) {
    const closest = oneWordAway(words, passageWords);
    if (closest) return { text, verdict: 'near-miss', closest: closest.join(' ') };
  }
  return { text, verdict: 'unverified' };
}

interface QuoteSpan {
  start: number;
  end: number;
  text: string;
}

/** The marked quotes of a statement; an opening mark never closed runs to the end of its line. */
function quoteSpans(statement: string): QuoteSpan[] {
  const spans: QuoteSpan[] = [];
  const lower = statement.toLowerCase();
  let from = 0;
  for (;;) {
    const open = lower.indexOf(OPEN, from);
    if (open < 0) return spans;
    const close = lower.indexOf(CLOSE, open + OPEN.length);
    const nextOpen = lower.indexOf(OPEN, open + OPEN.length);
    const lineEnd = statement.indexOf('\n', open);
    let end: number;
    let textEnd: number;
    if (close >= 0 && (nextOpen < 0 || close < nextOpen)) {
      textEnd = close;
      end = close + CLOSE.length;
    } else {
      textEnd = lineEnd >= 0 ? lineEnd : statement.length;
      if (nextOpen >= 0 && nextOpen < textEnd) textEnd = nextOpen;
      end = textEnd;
    }
    spans.push({ start: open, end, text: statement.slice(open + OPEN.length, textEnd).trim() });
    from = end;
  }
}

// A run checks many statements against the same few passages: each passage is read once.
const readPassages = new Map<string, string[]>();
function passageWordsOf(passage: string): string[] {
  let words = readPassages.get(passage);
  if (!words) {
    if (readPassages.size >= 64) readPassages.clear();
    words = normalisedWords(passage);
    readPassages.set(passage, words);
  }
  return words;
}

/** Every marked quote of a statement, checked against the passage. */
export function checkQuotes(statement: string, passage: string): CheckedQuote[] {
  const passageWords = passageWordsOf(passage);
  return quoteSpans(statement).map((span) => checkQuote(span.text, passageWords));
}

/**
 * The statement as the judge reads it: each quote marked <v_quote> when verified, <u_quote> when
 * not (near misses included).
 */
export function markQuotesForJudge(statement: string, passage: string): string {
  const passageWords = passageWordsOf(passage);
  let out = '';
  let at = 0;
  for (const span of quoteSpans(statement)) {
    const checked = checkQuote(span.text, passageWords);
    const tag = checked.verdict === 'verified' ? 'v_quote' : 'u_quote';
    out += `${statement.slice(at, span.start)}<${tag}>${span.text}</${tag}>`;
    at = span.end;
  }
  return out + statement.slice(at);
}

/** What the judge is told about the marks. */
export const QUOTE_MARKS_NOTE =
  'The debaters can read a passage you cannot see. When they quote it, each quote has been checked against the passage: <v_quote>...</v_quote> is a verified quote, word for word in the passage; <u_quote>...</u_quote> is not in the passage as written, so do not trust it.';
