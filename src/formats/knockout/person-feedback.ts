/**
 * What the person at the podium takes home from a knockout: how their opponents fared under the
 * judges, which of their claims the other side answered and which it left standing, and which of
 * the other side's claims they never answered. In a knockout the judges score the Position Y
 * debater of each round, not Position X, so a person in X is measured by what they knocked out.
 */
import type { LedgerClaim } from '../../agents/claims-ledger.js';
import type { KnockoutState } from './state.js';
import { xAgentOf } from './state.js';

const MOST = 8;

function claimLines(claims: readonly LedgerClaim[]): string[] {
  const shown = claims
    .slice(0, MOST)
    .map((claim) => `- round ${claim.round}, ${claim.agent}: "${claim.claim}"`);
  if (claims.length > shown.length) shown.push(`- ... and ${claims.length - shown.length} more`);
  return shown;
}

export function personFeedback(state: KnockoutState): string {
  const x = xAgentOf(state.scenario);
  if (x.human !== true) return '';
  const mine = state.ledger.filter((claim) => claim.position === 'X');
  const theirs = state.ledger.filter((claim) => claim.position === 'Y');
  const answered = mine.filter((claim) => claim.answeredBy.length > 0);
  const open = mine.filter((claim) => claim.answeredBy.length === 0);
  const unanswered = theirs.filter((claim) => claim.answeredBy.length === 0);
  const rounds = state.rounds.filter((round) => round.votes.length > 0);
  const lines = [`Feedback for ${x.name}, the person at the podium:`];
  for (const round of rounds) {
    const cast = round.votes.filter((vote) => vote.evaluation !== null);
    const against = cast.filter((vote) => vote.evaluation?.continue_vote === false).length;
    lines.push(
      `Round ${round.number}: ${against} of ${round.votes.length} judges voted to replace your opponent ${round.debater}.`,
    );
    for (const vote of cast) {
      const evaluation = vote.evaluation;
      if (!evaluation) continue;
      const comment = evaluation.comments.trim().replace(/\s+/g, ' ');
      lines.push(
        `- ${vote.judge}: ${evaluation.total_score.toFixed(2)} / 5 for ${round.debater}${comment ? `, "${shortened(comment, 240)}"` : ''}`,
      );
    }
  }
  if (state.ledger.length === 0) {
    lines.push('No claims were recorded for this debate, so none can be listed.');
    return lines.join('\n');
  }
  lines.push(`Your claims the other side answered (${answered.length}):`, ...claimLines(answered));
  lines.push(`Your claims left standing, never answered (${open.length}):`, ...claimLines(open));
  lines.push(`Their claims you never answered (${unanswered.length}):`, ...claimLines(unanswered));
  return lines.join('\n');
}

function shortened(text: string, most: number): string {
  if (text.length <= most) return text;
  const cut = text.lastIndexOf(' ', most - 1);
  return `${text.slice(0, cut > 0 ? cut : most - 1)}…`;
}
