/**
 * A note-taker's quote, copied the way a 7-8B model copies: the first 6 to 10 words of a sentence,
 * and now and then with one small mistake in them, a comma left out, the first letter's case
 * changed, one word changed for another or one word left out. The share of quotes with a mistake
 * is a server setting (`quoteErrors`, default QUOTE_ERROR_RATE).
 */
import type { Rng } from './random.js';

/** The share of quotes copied with one mistake when the server is not told otherwise. */
export const QUOTE_ERROR_RATE = 0.25;

/** The kinds of mistake, each as likely as the others where it can be made. */
export type QuoteMistake = 'comma' | 'case' | 'changed-word' | 'missing-word';

/** Words a model puts in place of the one written: the small words it copies carelessly. */
const SWAPS: Record<string, string> = {
  the: 'a',
  a: 'the',
  is: 'was',
  are: 'were',
  will: 'would',
  can: 'could',
  should: 'must',
  must: 'should',
  and: 'or',
  this: 'that',
  that: 'this',
  more: 'greater',
  of: 'for',
  in: 'on',
  to: 'for',
  we: 'they',
  our: 'their',
};

/** What a mistake does to the quote's words, or null when it cannot be made on them. */
function mistake(kind: QuoteMistake, words: string[], rng: Rng): string[] | null {
  switch (kind) {
    case 'comma': {
      const at = words.findIndex((word) => word.endsWith(','));
      if (at === -1) return null;
      return words.map((word, index) => (index === at ? word.slice(0, -1) : word));
    }
    case 'case': {
      const first = words[0] ?? '';
      const flipped =
        first.charAt(0) === first.charAt(0).toUpperCase()
          ? first.charAt(0).toLowerCase() + first.slice(1)
          : first.charAt(0).toUpperCase() + first.slice(1);
      return flipped === first ? null : [flipped, ...words.slice(1)];
    }
    case 'changed-word': {
      const candidates = words
        .map((word, index) => ({ index, bare: word.toLowerCase().replace(/[^a-z]/g, '') }))
        .filter(({ index, bare }) => index > 0 && SWAPS[bare] !== undefined);
      const chosen = candidates.length > 0 ? rng.pick(candidates) : undefined;
      if (!chosen) return null;
      return words.map((word, index) =>
        index === chosen.index ? word.replace(/[A-Za-z]+/, SWAPS[chosen.bare] as string) : word,
      );
    }
    case 'missing-word': {
      if (words.length < 6) return null;
      const at = rng.int(1, words.length - 2);
      return words.filter((_word, index) => index !== at);
    }
  }
}

/** The words with one small mistake in them (the kind drawn; another tried when it cannot be made), or as they were. */
export function miscopy(words: string[], rng: Rng): string[] {
  const kinds: QuoteMistake[] = ['comma', 'case', 'changed-word', 'missing-word'];
  const start = rng.int(0, kinds.length - 1);
  for (let step = 0; step < kinds.length; step += 1) {
    const changed = mistake(kinds[(start + step) % kinds.length] as QuoteMistake, words, rng);
    if (changed) return changed;
  }
  return words;
}

/**
 * The quote of `sentence` a note-taker writes: its first 6 to 10 words, with one mistake in a share
 * `errorRate` of quotes (when no mistake can be made on those words, another kind is tried).
 */
export function copyQuote(sentence: string, rng: Rng, errorRate = QUOTE_ERROR_RATE): string {
  const words = sentence.split(/\s+/).filter((word) => word !== '');
  const copied = words.slice(0, rng.int(6, 10));
  if (!rng.chance(errorRate)) return copied.join(' ');
  return miscopy(copied, rng).join(' ');
}
