/**
 * Which key sentences of a statement count as its claims, for debates without a claims ledger:
 * - introductions and greetings are not claims ("I am Blaise, and I will argue…", "Speaking as
 *   Ada, …", "Good evening", "Thank you, chair", "It is an honour to…", "I will argue for the
 *   motion."), so they are left out before the key sentences are picked;
 * - a sentence its speaker said before (the same words, or at least 80% of the same content words)
 *   is not a new claim: it is merged into the earlier one, which is marked restated where it was
 *   said again, and the statement's next key sentence is taken instead.
 */
import { extractKeyPoints } from '../agents/key-points.js';
import { contentWords } from './key-sentence-links.js';

/** Key sentences a statement gives as claims, at most. */
export const CLAIMS_PER_STATEMENT = 3;
/** How far down a statement the next key sentence is looked for when the first ones were repeats. */
const CANDIDATES = 6;
/** Content words two sentences share, of those either has, for one to restate the other. */
export const RESTATED_OVERLAP = 0.8;

const normalised = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Whether `later` says again what `earlier` said: the same words, or 80% of the same content words. */
export function restates(later: string, earlier: string): boolean {
  if (normalised(later) === normalised(earlier)) return true;
  const a = contentWords(later);
  const b = contentWords(earlier);
  if (a.size < 4 || b.size < 4) return false;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / Math.max(a.size, b.size) >= RESTATED_OVERLAP;
}

/**
 * A statement's claims: its new key sentences (at most three), and the ids of its speaker's earlier
 * claims it said again.
 */
export function statementClaims(
  text: string,
  earlier: ReadonlyArray<{ id: string; text: string }>,
): { fresh: string[]; restated: string[] } {
  const fresh: string[] = [];
  const restated: string[] = [];
  for (const sentence of extractKeyPoints(text, CANDIDATES)) {
    if (fresh.length >= CLAIMS_PER_STATEMENT) break;
    const said = earlier.find((claim) => restates(sentence, claim.text));
    if (said) {
      if (!restated.includes(said.id)) restated.push(said.id);
    } else if (!fresh.some((claim) => restates(sentence, claim))) {
      fresh.push(sentence);
    }
  }
  return { fresh, restated };
}
