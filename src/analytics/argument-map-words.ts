/** How the argument map is explained, in the same words on the page, in the export and in `agora show`. */
import type { ArgumentMap, ClaimStatus } from './argument-map-shape.js';
import { MIN_SHARED_WORDS } from './key-sentence-links.js';

/** What each status means. */
export const STATUS_MEANINGS: Record<ClaimStatus, string> = {
  open: 'never answered by the other side',
  answered: 'answered, and its side replied or had no turn left',
  dropped: 'answered, then let go: its side spoke again without replying',
};

/** Where the claims and links came from, and what could not be read. */
export function mapSourceText(map: ArgumentMap): string {
  const unread =
    map.unread > 0
      ? ` The claims of ${map.unread} statement${map.unread === 1 ? '' : 's'} could not be read (a failed extraction or an emergency statement).`
      : '';
  if (map.source === 'ledger') {
    const unlinked =
      map.unlinked > 0
        ? ` For ${map.unlinked} statement${map.unlinked === 1 ? '' : 's'} the ledger holds key sentences instead, which answer nothing (no note-taker was asked, or its answer was unusable).`
        : '';
    return `Claims and links from the debate's claims ledger: after each statement the note-taker listed its claims and which claim of the other side each one answers.${unlinked}${unread}`;
  }
  return `This debate kept no claims ledger, so each statement's key sentences stand for its claims (introductions and greetings left out; a sentence its speaker said before is merged into the earlier claim, marked restated), and a claim is linked to the claim of the other side it shares the most words with (at least ${MIN_SHARED_WORDS}, the motion's own words left out), among the statements the format had it answer; a cross-examination answer always answers a question. The links read the wording, not the meaning.${unread}`;
}

/** "22 claims, 15 answers, 6 supports: 7 answered, 10 left open, 5 dropped." */
export function mapSummaryText(map: ArgumentMap): string {
  const count = (status: ClaimStatus) => map.claims.filter((claim) => claim.status === status).length;
  return `${map.claims.length} claims, ${map.edges.length} answers, ${map.supports.length} support${map.supports.length === 1 ? '' : 's'}: ${count('answered')} answered, ${count('open')} left open, ${count('dropped')} dropped.`;
}
