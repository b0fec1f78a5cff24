/**
 * Links between key-sentence claims, for debates that kept no claims ledger. Two rules, both
 * stated on the map:
 * - a statement answers only what its format put in front of it and told it to answer (a formal
 *   rebuttal: the opponent's statements so far; a cross-examination answer: the questions just
 *   put; an opening: nothing); in a duel or a knockout, the opponent's earlier statements;
 * - among those, a claim answers the opponent's claim it shares the most words with (at least
 *   two, leaving out short and common words and the motion's own words), the most recent on a tie;
 *   a cross-examination answer answers a question in any case (the one it shares the most words
 *   with, or the question in its place).
 * Support links (a claim to its own side's earlier claim it restates or extends) follow the same
 * wording rule.
 * No model is asked: the links are a reading of the wording, not of the meaning.
 */
import type { RawClaim } from './argument-map-shape.js';

export interface StatementClaims {
  phase: string;
  side: string;
  claims: RawClaim[];
}

/** Shared words a link needs. */
export const MIN_SHARED_WORDS = 2;

const COMMON = new Set(
  `about above after again against also although among another because been before being below
  between both cannot could does doing done down during each either even ever every from further
  have having here hers herself himself into itself just least less more most much must myself
  neither never none once only other ought ours ourselves over same shall should some such than that
  their theirs them themselves then there these they this those through under until upon very want
  were what when where whether which while whom whose will with within without would your yours
  yourself yourselves make makes made many well still like really thing things point points argue
  argues argued claim claims case side sides opponent opponents debate question questions answer
  answers said says says think believe simply clear clearly indeed however therefore`.split(/\s+/),
);

/** The words of a text that can carry a link: lower case, four letters or more, not common. */
export function contentWords(text: string, excluded: ReadonlySet<string> = new Set()): Set<string> {
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[a-z][a-z'-]{3,}/g)) {
    // A plural and its singular are one word; a possessive is its noun.
    const word = match[0].replace(/'s$/, '').replace(/(?<=[^s])s$/, '');
    if (word.length >= 4 && !COMMON.has(word) && !excluded.has(word)) words.add(word);
  }
  return words;
}

/** Which earlier statements of the other side a statement may answer, by the format's rules. */
function answerable(
  format: string,
  statement: StatementClaims,
  earlier: StatementClaims[],
): StatementClaims[] {
  const opponent = earlier.filter((item) => item.side !== statement.side);
  if (format !== 'formal') return opponent;
  switch (statement.phase) {
    case 'opening':
      return [];
    case 'cross-question':
      return opponent.filter((item) => item.phase === 'opening' || item.phase === 'rebuttal');
    case 'cross-answer':
      return opponent.filter((item) => item.phase === 'cross-question').slice(-1);
    default:
      return opponent;
  }
}

/**
 * Support links: each claim to the earlier claim of its own side (made in an earlier statement) it
 * shares the most words with, at least `MIN_SHARED_WORDS` (the motion's words left out), the most
 * recent on a tie: the claim restates or extends it. For a ledger's claims and key sentences alike.
 */
export function supportLinks(claims: readonly RawClaim[], motion: string): Map<string, string> {
  const excluded = contentWords(motion);
  const words = new Map(claims.map((claim) => [claim.id, contentWords(claim.text, excluded)]));
  const links = new Map<string, string>();
  for (const claim of claims) {
    const own = words.get(claim.id) ?? new Set<string>();
    let best: { id: string; shared: number; seq: number } | null = null;
    for (const earlier of claims) {
      if (earlier.side !== claim.side || earlier.seq >= claim.seq) continue;
      let shared = 0;
      for (const word of words.get(earlier.id) ?? []) if (own.has(word)) shared += 1;
      if (shared < MIN_SHARED_WORDS) continue;
      if (!best || shared > best.shared || (shared === best.shared && earlier.seq > best.seq)) {
        best = { id: earlier.id, shared, seq: earlier.seq };
      }
    }
    if (best) links.set(claim.id, best.id);
  }
  return links;
}

/** The claims with their `answers` filled in, in speaking order. */
export function linkByWording(statements: StatementClaims[], format: string, motion: string): RawClaim[] {
  const excluded = contentWords(motion);
  const words = new Map<string, Set<string>>();
  const wordsOf = (claim: RawClaim) => {
    let found = words.get(claim.id);
    if (!found) {
      found = contentWords(claim.text, excluded);
      words.set(claim.id, found);
    }
    return found;
  };
  const linked: RawClaim[] = [];
  statements.forEach((statement, at) => {
    const candidates = answerable(format, statement, statements.slice(0, at)).flatMap((item) => item.claims);
    // A cross-examination answer answers the questions just put, whatever words it uses: each of
    // its claims the question it shares the most words with, or else the question in its place.
    const answering = format === 'formal' && statement.phase === 'cross-answer';
    statement.claims.forEach((claim, place) => {
      const own = wordsOf(claim);
      let best: { id: string; shared: number; seq: number } | null = null;
      for (const candidate of candidates) {
        let shared = 0;
        for (const word of wordsOf(candidate)) if (own.has(word)) shared += 1;
        if (shared < (answering ? 1 : MIN_SHARED_WORDS)) continue;
        if (!best || shared > best.shared || (shared === best.shared && candidate.seq > best.seq)) {
          best = { id: candidate.id, shared, seq: candidate.seq };
        }
      }
      const question = answering ? candidates[Math.min(place, candidates.length - 1)] : undefined;
      linked.push({ ...claim, answers: best?.id ?? question?.id ?? null });
    });
  });
  return linked;
}
