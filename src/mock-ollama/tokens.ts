/**
 * A small deterministic tokenizer standing in for a real BPE vocabulary. It is lossless
 * (`tokenize(text).join('') === text`) so a generated answer can be cut at an exact token, and it
 * works left to right without look-behind so a shared text prefix always yields a shared token
 * prefix, which is what the simulated prompt cache relies on.
 */

// Chat-template markers, words with an optional leading space (like BPE's "▁word"), short digit
// groups, single punctuation marks and runs of whitespace. Every character matches one branch.
const TOKEN_PATTERN = /<\|[a-z_]+\|>| ?\p{L}+| ?\p{N}{1,3}| ?[^\s\p{L}\p{N}]|\s+/gu;

// Long words are split into pieces of this many letters, which brings ordinary English prose to
// roughly 1.3 tokens per word, close to what real vocabularies report.
const PIECE_LETTERS = 5;
const WHOLE_WORD_LETTERS = 7;

/** Splits text into tokens; joining the result gives back the original text. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(TOKEN_PATTERN)) {
    const token = match[0];
    const space = token.startsWith(' ') ? ' ' : '';
    const letters = Array.from(token.slice(space.length));
    if (letters.length <= WHOLE_WORD_LETTERS || !/^\p{L}/u.test(letters[0] ?? '')) {
      tokens.push(token);
      continue;
    }
    for (let i = 0; i < letters.length; i += PIECE_LETTERS) {
      const piece = letters.slice(i, i + PIECE_LETTERS).join('');
      tokens.push(i === 0 ? space + piece : piece);
    }
  }
  return tokens;
}

/** Number of tokens in `text` under the mock tokenizer. */
export function countTokens(text: string): number {
  return tokenize(text).length;
}

/** A stable small integer id for a token, used for the legacy `context` array of /api/generate. */
export function tokenId(token: string): number {
  // FNV-1a, folded into a vocabulary-sized range.
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) {
    hash ^= token.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % 128_000;
}
