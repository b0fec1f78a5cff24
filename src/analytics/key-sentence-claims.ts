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
import { sentencesOf } from '../core/sentences.js';
import { contentWords } from './key-sentence-links.js';

/** Key sentences a statement gives as claims, at most. */
export const CLAIMS_PER_STATEMENT = 3;
/** How far down a statement the next key sentence is looked for when the first ones were repeats. */
const CANDIDATES = 6;
/** Content words two sentences share, of those either has, for one to restate the other. */
export const RESTATED_OVERLAP = 0.8;

const GREETING =
  /^(?:good (?:morning|afternoon|evening|day)|hello|hi|greetings|welcome|thank you|thanks|ladies and gentlemen|dear|esteemed|honou?red|respected|madam|mister|mr\.? chair|chair)\b/i;
const SELF_INTRODUCTION =
  /^(?:(?:I am|I'm|I’m|My name is|Speaking as|Arguing as)\s+\p{Lu}\p{Ll}*(?:\s+\p{Lu}\p{Ll}*)*\s*(?:,|and\b|here\b|\.)|(?:I am|I'm|I’m|My name is)\s+\p{Lu}|(?:I am|I'm|I’m)\s+(?:the\s+)?(?:affirmative|negative|proposition|opposition|first|second|opening|closing)\s+speaker\b)/u;
const PLEASURE = /\b(?:it is|it's|what) (?:an? |my )?(?:honou?r|pleasure|privilege)\b/i;
/** "I will argue", "I'm here to argue", "I stand here to defend": a speaker announcing, not claiming. */
const ANNOUNCEMENT =
  /^(?:today,?\s+)?(?:i|we)\s+(?:will|shall|want to|would like to|intend to|am going to|are going to|am here to|are here to|stand here to|rise to)\s+(?:argue|defend|oppose|propose|speak|make the case|present|show)\b(?![^.!?]*\b(?:that|because)\b)[^.!?]{0,60}[.!?]?$/i;

/** Whether a sentence introduces its speaker or greets the room rather than claiming something. */
export function isIntroduction(sentence: string): boolean {
  const text = sentence.trim();
  return (
    GREETING.test(text) || SELF_INTRODUCTION.test(text) || PLEASURE.test(text) || ANNOUNCEMENT.test(text)
  );
}

/** The text without its introductions and greetings, paragraph by paragraph. */
export function withoutIntroductions(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) =>
      sentencesOf(paragraph)
        .filter((sentence) => !isIntroduction(sentence))
        .join(' '),
    )
    .filter((paragraph) => paragraph.trim() !== '')
    .join('\n\n');
}

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
  for (const sentence of extractKeyPoints(withoutIntroductions(text), CANDIDATES)) {
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
