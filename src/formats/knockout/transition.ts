/**
 * The moderator's transition between rounds (SRS 2.2): a summary of the round just played and the
 * focus of the next. Built from the round's key points, without a model call.
 */
import { type LedgerClaim, openClaimsAgainst } from '../../agents/claims-ledger.js';
import { extractKeyPoints } from '../../agents/key-points.js';
import type { RoundEndEvent, Tally } from '../../core/events.js';
import type { RoundRecord } from './state.js';

export function buildTransition(
  round: RoundRecord,
  tally: Tally,
  outcome: RoundEndEvent['outcome'],
  rotation: RoundEndEvent['rotation'],
  nextDebater: string,
  xName: string,
  finalRound: boolean,
  /** The claims ledger, when the run keeps one: the focus names the claims still unanswered. */
  ledger: readonly LedgerClaim[] | null = null,
): RoundEndEvent['transition'] {
  // Emergency responses are not arguments: nobody is asked to answer them.
  const x = round.statements.find((statement) => statement.position === 'X' && !statement.degraded);
  const y = round.statements.find((statement) => statement.position === 'Y' && !statement.degraded);
  const claimOf = (position: 'X' | 'Y') =>
    ledger?.find(
      (claim) => claim.round === round.number && claim.position === position && claim.kind === 'new',
    )?.claim;
  const xPoint = x ? (claimOf('X') ?? extractKeyPoints(x.text, 1)[0]) : undefined;
  const yPoint = y ? (claimOf('Y') ?? extractKeyPoints(y.text, 1)[0]) : undefined;
  const mean = tally.meanScore === null ? 'no scores' : `mean score ${tally.meanScore.toFixed(2)}`;
  const votes =
    outcome === 'void'
      ? ''
      : `The judges voted ${tally.rotateVotes} to replace and ${tally.continueVotes} to keep ${round.debater}${
          tally.abstentions > 0 ? ` (${tally.abstentions} abstained)` : ''
        }, ${mean}.`;
  const what: Record<RoundEndEvent['outcome'], string> = {
    continue: `${round.debater} continues.`,
    rotation: rotation ? `${rotation.to} replaces ${rotation.from}.` : '',
    'rotation-limit-reached': `The rotation limit is reached, so ${round.debater} continues.`,
    'nobody-eligible': `Every other Position Y agent has debated, so ${round.debater} continues.`,
    'debate-over': `The vote went against ${round.debater}, but this was the final round.`,
    void: `The vote is void: ${
      round.statements.some((statement) => statement.position === 'Y' && statement.degraded)
        ? `${round.debater}'s model failed, so there was no statement to judge`
        : 'most judges could not be reached'
    }. ${round.debater} ${finalRound ? 'ends the debate' : 'continues'} without a verdict.`,
  };
  const summary = [
    `Round ${round.number}:`,
    xPoint ? `${xName} argued: "${xPoint}"` : '',
    yPoint ? `${round.debater} argued: "${yPoint}"` : '',
    votes,
    what[outcome],
  ]
    .filter((part) => part !== '')
    .join(' ');
  if (finalRound) return { summary, focus: 'That was the final round.' };
  const focusParts = [`Focus for round ${round.number + 1}:`];
  // With a ledger: the strongest claim each side has left unanswered, wherever it was made, named
  // by its words and who made it (a claim id would mean nothing to the reader). Without an open
  // claim, the round's own key point.
  const openForY = ledger ? openClaimsAgainst(ledger, 'Y')[0] : undefined;
  const openForX = ledger ? openClaimsAgainst(ledger, 'X')[0] : undefined;
  const answer = (open: LedgerClaim | undefined, point: string | undefined) =>
    open ? `the open claim "${open.claim}" (${open.agent}, round ${open.round})` : point ? `"${point}"` : '';
  const forY = answer(openForY, xPoint);
  const forX = answer(openForX, yPoint);
  if (forY) focusParts.push(`${nextDebater} should answer ${forY}.`);
  if (forX) focusParts.push(`${xName} should answer ${forX}.`);
  if (!forY && !forX) focusParts.push('both sides should sharpen their strongest argument.');
  return { summary, focus: focusParts.join(' ') };
}
