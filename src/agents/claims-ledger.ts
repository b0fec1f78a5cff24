/**
 * The claims ledger (seed 004 §2.1, AgentMemory): every claim each statement made, with an id, who
 * made it, whether it was new, and which claim of the other side it answers. A claim is answered
 * once the other side has made a claim that rebuts it. Built by folding the run's `claims` events,
 * so resume and replay give the same ledger; each agent's memory is read from it from that agent's
 * own side.
 */
import type { ClaimsEvent, ExtractedClaim, PositionLabel } from '../core/events.js';

export interface LedgerClaim extends ExtractedClaim {
  /** `X2.1`: side, round, and place in the statement. */
  id: string;
  round: number;
  agent: string;
  position: PositionLabel;
  /** Ids of the other side's claims that rebut this one. */
  answeredBy: string[];
}

export function claimId(position: PositionLabel, round: number, index: number): string {
  return `${position}${round}.${index + 1}`;
}

/** Adds one statement's claims to the ledger (a new array; the ledger is part of an immutable state). */
export function addClaims(ledger: readonly LedgerClaim[], event: ClaimsEvent): LedgerClaim[] {
  const added = event.claims.map((claim, index) => ({
    ...claim,
    id: claimId(event.position, event.round, index),
    round: event.round,
    agent: event.agent,
    position: event.position,
    answeredBy: [] as string[],
  }));
  const answered = new Map<string, string[]>();
  for (const claim of added) {
    if (claim.answers === null) continue;
    answered.set(claim.answers, [...(answered.get(claim.answers) ?? []), claim.id]);
  }
  const updated = ledger.map((claim) => {
    const by = answered.get(claim.id);
    return by && claim.position !== event.position
      ? { ...claim, answeredBy: [...claim.answeredBy, ...by] }
      : claim;
  });
  return [...updated, ...added];
}

/**
 * The claims of `position`'s opponents not yet answered, most pressing first: the newest round's
 * first (what was just said is what a speaker answers), and within a round those with evidence
 * (which only claims extracted with an evidence field have).
 */
export function openClaimsAgainst(ledger: readonly LedgerClaim[], position: PositionLabel): LedgerClaim[] {
  return ledger
    .filter((claim) => claim.position !== position && claim.answeredBy.length === 0 && claim.kind === 'new')
    .sort((a, b) => b.round - a.round || Number(Boolean(b.evidence)) - Number(Boolean(a.evidence)));
}

/** Claims of the debate made through `throughRound` and not answered by then: the debate's live claims at that point. */
export function liveClaimsThrough(ledger: readonly LedgerClaim[], throughRound: number): LedgerClaim[] {
  const known = ledger.filter((claim) => claim.round <= throughRound);
  const answered = new Set(known.flatMap((claim) => (claim.answers === null ? [] : [claim.answers])));
  return known.filter((claim) => claim.kind === 'new' && !answered.has(claim.id));
}

const MAX_CLAIM_CHARS = 220;
const MAX_EVIDENCE_CHARS = 120;

function cut(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : `${trimmed.slice(0, max - 1).trimEnd()}…`;
}

/**
 * One line for a prompt. With its id, for the note-taker and the summariser, who link claims:
 * `[Y1.2] Yara, round 1: claim (evidence: ...)`. Without it, for debaters, who would otherwise
 * cite the ids in their speech: `Yara, round 1: "claim" (evidence: ...)`.
 */
export function claimLine(
  claim: LedgerClaim,
  options: { evidence?: boolean; id?: boolean; maxChars?: number } = {},
): string {
  const evidence =
    options.evidence === false || (claim.evidence ?? '').trim() === ''
      ? ''
      : ` (evidence: ${cut(claim.evidence ?? '', MAX_EVIDENCE_CHARS)})`;
  const text = cut(claim.claim, options.maxChars ?? MAX_CLAIM_CHARS);
  return options.id === false
    ? `${claim.agent}, round ${claim.round}: "${text}"${evidence}`
    : `[${claim.id}] ${claim.agent}, round ${claim.round}: ${text}${evidence}`;
}

/** AgentMemory from the ledger, from the agent's own perspective. */
export interface LedgerMemory {
  /** What this agent has argued, by round (its debate history). */
  ownClaims: LedgerClaim[];
  /** What its own side argued before it took the floor. */
  sideClaims: LedgerClaim[];
  /** The opponents' claims nobody on its side has answered yet, strongest first. */
  openOpponentClaims: LedgerClaim[];
  /** Its own claims the other side has rebutted. */
  rebuttedOwnClaims: LedgerClaim[];
}

const KEEP = 4;

export function memoryFromLedger(
  ledger: readonly LedgerClaim[],
  agent: string,
  position: PositionLabel,
): LedgerMemory {
  const own = ledger.filter((claim) => claim.agent === agent && claim.kind === 'new');
  return {
    ownClaims: own.slice(-KEEP),
    sideClaims: ledger
      .filter((claim) => claim.position === position && claim.agent !== agent && claim.kind === 'new')
      .slice(-KEEP),
    openOpponentClaims: openClaimsAgainst(ledger, position).slice(0, 3),
    rebuttedOwnClaims: own.filter((claim) => claim.answeredBy.length > 0).slice(-2),
  };
}

/** What the agent has said, beyond the ledger: whether it has spoken, and its statements' key sentences. */
export interface SpokenSoFar {
  /** It has made a statement in this debate (whatever the ledger holds of it). */
  hasSpoken: boolean;
  /** Key sentences of its own statements, newest last: its memory when the ledger holds no claim of its. */
  ownKeySentences: readonly string[];
}

/**
 * The memory as the agent's prompt states it, most useful first, within `budgetChars` (a share of
 * the context window): the opponent's open claims, then its own claims, what was rebutted, and its
 * side's claims; each claim once. A section that would not fit is left out whole. Without a claim
 * of its own in the ledger, an agent that has spoken is reminded of its statements' key sentences;
 * only one that has not spoken is told so.
 */
export function describeLedgerMemory(
  memory: LedgerMemory,
  budgetChars = Number.POSITIVE_INFINITY,
  spoken: SpokenSoFar = { hasSpoken: false, ownKeySentences: [] },
  /** The most pressing open claim was taken out of `memory` to be quoted in the task as the focus. */
  focusTaken = false,
): string {
  const list = (title: string, items: readonly string[]) =>
    items.length === 0 ? '' : `${title}:\n${items.map((item) => `- ${item}`).join('\n')}\n`;
  const section = (title: string, items: LedgerClaim[], evidence: boolean) =>
    list(
      title,
      items.map((item) => claimLine(item, { evidence, id: false })),
    );
  const rebutted = new Set(memory.rebuttedOwnClaims.map((claim) => claim.id));
  const own = memory.ownClaims.filter((claim) => !rebutted.has(claim.id));
  const noOwnClaims = memory.ownClaims.length === 0 && memory.rebuttedOwnClaims.length === 0;
  const sections = [
    section(
      focusTaken
        ? "Your opponent's other claims that your side has not answered yet"
        : "Your opponent's strongest claims that your side has not answered yet (answer these)",
      memory.openOpponentClaims,
      true,
    ),
    noOwnClaims
      ? list(
          'Points you have made so far, from your statements (build on them; do not repeat them)',
          spoken.ownKeySentences.slice(-KEEP),
        )
      : section('Claims you have made so far (build on them; do not repeat them)', own, false),
    section(
      'Claims of yours your opponent has rebutted (defend or refine them)',
      memory.rebuttedOwnClaims,
      false,
    ),
    section('Claims your own side made before you took the floor', memory.sideClaims, false),
  ];
  let text = '';
  for (const part of sections) if (text.length + part.length <= budgetChars) text += part;
  if (text !== '') return text;
  return spoken.hasSpoken
    ? 'You have already spoken in this debate: your statements are in the transcript above.\n'
    : 'You have not spoken yet in this debate.\n';
}
