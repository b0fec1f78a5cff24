/**
 * What the person at the podium takes home from a knockout. In Position Y they are judged like any
 * Y debater: each judge's scores per criterion and comments, round by round. In Position X, whom
 * the judges do not score, they see how each opponent fared. Either way: which of their claims the
 * other side answered and which it left standing, and which of the other side's claims they never
 * answered.
 */
import type { LedgerClaim } from '../../agents/claims-ledger.js';
import type { KnockoutState } from './state.js';

const MOST = 8;

function claimLines(claims: readonly LedgerClaim[]): string[] {
  const shown = claims
    .slice(0, MOST)
    .map((claim) => `- round ${claim.round}, ${claim.agent}: "${claim.claim}"`);
  if (claims.length > shown.length) shown.push(`- ... and ${claims.length - shown.length} more`);
  return shown;
}

function shortened(text: string, most: number): string {
  if (text.length <= most) return text;
  const cut = text.lastIndexOf(' ', most - 1);
  return `${text.slice(0, cut > 0 ? cut : most - 1)}…`;
}

export function personFeedback(state: KnockoutState): string {
  return state.scenario.agents
    .filter((agent) => agent.human === true)
    .map((agent) => feedbackFor(state, agent.name, agent.position))
    .join('\n\n');
}

function feedbackFor(state: KnockoutState, name: string, position: 'X' | 'Y'): string {
  const lines = [`Feedback for ${name}, the person at the podium:`];
  const judged = state.rounds.filter(
    (round) => round.votes.length > 0 && (position === 'X' || round.debater === name),
  );
  if (position === 'Y' && judged.length === 0) lines.push('You did not take the floor in this debate.');
  for (const round of judged) {
    const cast = round.votes.filter((vote) => vote.evaluation !== null);
    const against = cast.filter((vote) => vote.evaluation?.continue_vote === false).length;
    const whom = position === 'X' ? `your opponent ${round.debater}` : 'you';
    lines.push(`Round ${round.number}: ${against} of ${round.votes.length} judges voted to replace ${whom}.`);
    for (const vote of cast) {
      const evaluation = vote.evaluation;
      if (!evaluation) continue;
      const criteria =
        position === 'Y'
          ? ` (${Object.entries(evaluation.position_y_performance)
              .map(([criterion, score]) => `${criterion.replace(/_/g, ' ')} ${score}`)
              .join(', ')})`
          : '';
      const comment = evaluation.comments.trim().replace(/\s+/g, ' ');
      lines.push(
        `- ${vote.judge}: ${evaluation.total_score.toFixed(2)} / 5${position === 'X' ? ` for ${round.debater}` : ''}${criteria}${comment ? `, "${shortened(comment, 240)}"` : ''}`,
      );
    }
  }
  if (state.ledger.length === 0) {
    lines.push('No claims were recorded for this debate, so none can be listed.');
    return lines.join('\n');
  }
  const mine = state.ledger.filter((claim) => claim.agent === name);
  // The other side's claims from the rounds the person spoke in.
  const spokeIn = new Set(
    state.rounds
      .filter((round) => round.statements.some((statement) => statement.agent === name))
      .map((round) => round.number),
  );
  const theirs = state.ledger.filter((claim) => claim.position !== position && spokeIn.has(claim.round));
  const answered = mine.filter((claim) => claim.answeredBy.length > 0);
  const open = mine.filter((claim) => claim.answeredBy.length === 0);
  const mineIds = new Set(mine.map((claim) => claim.id));
  // The other side's claims that none of the person's own claims answered.
  const unanswered = theirs.filter((claim) => !claim.answeredBy.some((id) => mineIds.has(id)));
  lines.push(`Your claims the other side answered (${answered.length}):`, ...claimLines(answered));
  lines.push(`Your claims left standing, never answered (${open.length}):`, ...claimLines(open));
  lines.push(`Their claims you never answered (${unanswered.length}):`, ...claimLines(unanswered));
  return lines.join('\n');
}
