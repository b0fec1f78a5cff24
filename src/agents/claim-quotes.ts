/**
 * Quotes checked against the statement they came from. The note-taker copies the first words of the
 * sentence that makes a claim; the quote must be in the statement (compared without case, double
 * quotes or runs of spaces), and the claim the ledger records is the whole sentence of the statement
 * that the quote starts, so a claim is always the speaker's own words, and a short quote is all the
 * model has to write.
 */

/** A claim's text is at most this long; a longer sentence is cut at a word and marked with "…". */
export const MAX_CLAIM_TEXT = 300;

/** A quote needs at least this many words to prove anything. */
const MIN_QUOTE_WORDS = 4;

const SAME_CHARACTER: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u2013': '-',
  '\u2014': '-',
};
/** Double quotes are left out of the comparison: a note-taker copying a sentence often drops them. */
const IGNORED = /["\u201c\u201d]/;

/**
 * Text reduced to what a verbatim check compares (lower case, plain apostrophes and dashes, no
 * double quotes, single spaces), with the index in the original text of each character kept, so that a match can be
 * mapped back to the speaker's own words.
 */
function comparable(text: string): { text: string; at: number[] } {
  let out = '';
  const at: number[] = [];
  let space = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index] as string;
    if (/\s/.test(character)) {
      space = out !== '';
      continue;
    }
    if (IGNORED.test(character)) continue;
    if (space) {
      out += ' ';
      at.push(index - 1);
      space = false;
    }
    out += (SAME_CHARACTER[character] ?? character).toLowerCase();
    at.push(index);
  }
  return { text: out, at };
}

/** The parts of a quote between "..." elisions, without the punctuation and quotes around them. */
function quoteParts(quote: string): string[] {
  return comparable(quote)
    .text.split(/\.\.\.|…/)
    .map((part) => part.replace(/^[\s"'.,;:!?-]+|[\s"'.,;:!?-]+$/g, ''))
    .filter((part) => part !== '');
}

/** Where the quote is in the statement (original indices: its first character, after its last), or null. */
export function quoteSpan(quote: string, statement: string): { start: number; end: number } | null {
  const parts = quoteParts(quote);
  if (parts.length === 0 || parts.join(' ').split(' ').length < MIN_QUOTE_WORDS) return null;
  const { text, at } = comparable(statement);
  let from = 0;
  let start = -1;
  for (const part of parts) {
    const found = text.indexOf(part, from);
    if (found === -1) return null;
    if (start === -1) start = found;
    from = found + part.length;
  }
  return { start: at[start] as number, end: (at[from - 1] as number) + 1 };
}

/** True when `quote` is the statement's own words (every part between "..." elisions, in order). */
export function isInStatement(quote: string, statement: string): boolean {
  return quoteSpan(quote, statement) !== null;
}

const SENTENCE_END = /[.!?…]["'”’)\]]*(?=\s|$)/g;
/** Words whose full stop does not end a sentence: "Dr. Okafor", "Roe v. Wade", "the U.S. courts". */
const ABBREVIATION = /(?:^|[\s(])(?:dr|mr|mrs|ms|prof|st|vs?|e\.g|i\.e|[a-z](?:\.[a-z])*)\.$/i;

/**
 * The statement's sentence (or sentences) that the quote is taken from: from the start of the
 * sentence it begins in to the end of the sentence it ends in, spaces made single; null when the
 * quote is not in the statement. A sentence over MAX_CLAIM_TEXT characters is cut at a word.
 */
export function sentenceOfQuote(quote: string, statement: string): string | null {
  const span = quoteSpan(quote, statement);
  if (span === null) return null;
  let start = 0;
  let end = statement.length;
  for (const match of statement.matchAll(SENTENCE_END)) {
    const after = (match.index ?? 0) + match[0].length;
    if (match[0] === '.' && ABBREVIATION.test(statement.slice(Math.max(0, after - 8), after))) continue;
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
  if (sentence.length <= MAX_CLAIM_TEXT) return sentence;
  const cut = sentence.slice(0, MAX_CLAIM_TEXT - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1)).trimEnd()}…`;
}

/** A claim's text as a key: the same sentence listed twice is one claim. */
export function claimKey(text: string): string {
  return comparable(text).text;
}
