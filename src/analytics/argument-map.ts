/**
 * The argument map of a debate: every claim a node, every "answers" link an edge, and each claim's
 * fate at the end of the debate. Built from the run's events alone (see `argument-claims.ts` for
 * where the claims come from), so the run page, the export, `agora show` and the leaderboard
 * agree.
 *
 * A claim's status (docs/argument-map.md):
 * - open: the other side never answered it;
 * - answered: the other side answered it, and its own side either replied to an answer or never
 *   had the floor again afterwards;
 * - dropped: the other side answered it, its own side spoke again afterwards, and none of its later
 *   claims answered any of those answers: the side let the point go.
 */
import type { RunEvent } from '../core/events.js';
import { mapInputOf } from './argument-claims.js';
import { supportLinks } from './key-sentence-links.js';

export type ClaimStatus = 'open' | 'answered' | 'dropped';

/** One claim as the map shows it. */
export interface MapClaim {
  /** `X2.1`, `A3.1`: side, round or statement, place in the statement. */
  id: string;
  /** The side's key: X or Y, affirmative or negative, a or b. */
  side: string;
  speaker: string;
  /** The round (knockout, duel) or statement number (formal) it was made in. */
  round: number;
  /** The map's row: a round, or a phase of a formal debate. */
  row: string;
  /** Where it stands in the log: claims of one statement share it. */
  seq: number;
  text: string;
  evidence: string;
  /** It repeats an earlier claim of the same side: shown, not counted as a claim made. */
  restated: boolean;
  /** The other side's claim it answers, or null. */
  answers: string | null;
  /** Its own side's earlier claim it restates or extends (shares the most words with), or null. */
  supports: string | null;
  /** Key sentences only: the statements (`A7`) where its speaker said it again, merged into it. */
  restatedIn: string[];
  /** The other side's claims that answer it, in the order made. */
  answeredBy: string[];
  status: ClaimStatus;
}

/** What one debater's claims came to: the argument scores. */
export interface ArgumentScore {
  speaker: string;
  side: string;
  /** New claims made (restated ones are not counted again). */
  made: number;
  /** Of those, the ones the other side answered (answered or dropped). */
  answeredByOther: number;
  /** The other side's claims this debater answered, each counted once. */
  answersGiven: number;
  /** Of its claims, the ones the other side never answered. */
  leftOpen: number;
  /** Of its claims, the ones answered and then let go by its own side. */
  dropped: number;
}

/** Where the claims came from: the run's claims ledger, or the statements' key sentences. */
export type MapSource = 'ledger' | 'key-sentences';

export interface ArgumentMap {
  source: MapSource;
  /** The two sides, left then right, with how they read. */
  sides: Array<{ key: string; label: string }>;
  /** The rows in speaking order, with their titles. */
  rows: Array<{ key: string; title: string }>;
  claims: MapClaim[];
  /** Every "answers" link: `from` answers `to`. */
  edges: Array<{ from: string; to: string }>;
  /** Every support link: `from` restates or extends `to`, an earlier claim of its own side. */
  supports: Array<{ from: string; to: string }>;
  scores: ArgumentScore[];
  /** Statements whose claims could not be read (a failed extraction, an emergency statement). */
  unread: number;
  /** Statements of a ledger whose claims are key sentences, with no links recorded (no note-taker asked, or its answer unusable). */
  unlinked: number;
}

/** A claim before its status and support are known: what `argument-claims.ts` reads from the log. */
export type RawClaim = Omit<MapClaim, 'answeredBy' | 'status' | 'supports' | 'restatedIn'> & {
  restatedIn?: string[];
};

/** A statement, for when each side had the floor. */
export interface Spoken {
  side: string;
  speaker: string;
  seq: number;
}

export interface MapInput {
  source: MapSource;
  sides: ArgumentMap['sides'];
  rows: ArgumentMap['rows'];
  claims: RawClaim[];
  statements: Spoken[];
  unread: number;
  unlinked: number;
  /** The motion and the sides' own words, which a support link does not count. */
  motion?: string;
}

/** The map of a run, or null for a format without two sides to map (critique, council). */
export function argumentMap(events: readonly RunEvent[]): ArgumentMap | null {
  const input = mapInputOf(events);
  if (!input) return null;
  // Support links leave out the motion's and the sides' own words, as answers do.
  const start = events[0];
  const topic = start?.type === 'run-start' ? start.scenario.topic : '';
  return buildMap({ ...input, motion: [topic, ...input.sides.map((side) => side.label)].join(' ') });
}

/** Links, statuses and scores from the claims as read. */
export function buildMap(input: MapInput): ArgumentMap {
  const byId = new Map(input.claims.map((claim) => [claim.id, claim]));
  // A link counts only to a claim of the other side that was made before.
  const answers = (claim: RawClaim) => {
    const target = claim.answers === null ? undefined : byId.get(claim.answers);
    return target && target.side !== claim.side && target.seq < claim.seq ? target.id : null;
  };
  const answeredBy = new Map<string, RawClaim[]>();
  for (const claim of input.claims) {
    const target = answers(claim);
    if (target) answeredBy.set(target, [...(answeredBy.get(target) ?? []), claim]);
  }
  const supported = supportLinks(input.claims, input.motion ?? '');
  const claims: MapClaim[] = input.claims.map((claim) => {
    const by = answeredBy.get(claim.id) ?? [];
    return {
      ...claim,
      answers: answers(claim),
      supports: supported.get(claim.id) ?? null,
      restatedIn: claim.restatedIn ?? [],
      answeredBy: by.map((answer) => answer.id),
      status: statusOf(claim, by, input),
    };
  });
  const edges = claims.flatMap((claim) => (claim.answers ? [{ from: claim.id, to: claim.answers }] : []));
  const supports = claims.flatMap((claim) =>
    claim.supports ? [{ from: claim.id, to: claim.supports }] : [],
  );
  return {
    source: input.source,
    sides: input.sides,
    rows: input.rows,
    claims,
    edges,
    supports,
    scores: scoresOf(claims, input),
    unread: input.unread,
    unlinked: input.unlinked,
  };
}

function statusOf(claim: RawClaim, answeredBy: RawClaim[], input: MapInput): ClaimStatus {
  const first = answeredBy[0];
  if (!first) return 'open';
  const answerIds = new Set(answeredBy.map((answer) => answer.id));
  const replied = input.claims.some(
    (later) => later.side === claim.side && later.answers !== null && answerIds.has(later.answers),
  );
  if (replied) return 'answered';
  const spokeAgain = input.statements.some(
    (statement) => statement.side === claim.side && statement.seq > first.seq,
  );
  return spokeAgain ? 'dropped' : 'answered';
}

function scoresOf(claims: MapClaim[], input: MapInput): ArgumentScore[] {
  // Every debater who spoke has a row, whether or not a claim of theirs was read.
  const speakers = new Map<string, string>();
  for (const statement of input.statements) {
    if (!speakers.has(statement.speaker)) speakers.set(statement.speaker, statement.side);
  }
  for (const claim of claims) if (!speakers.has(claim.speaker)) speakers.set(claim.speaker, claim.side);
  return [...speakers].map(([speaker, side]) => {
    const own = claims.filter((claim) => claim.speaker === speaker);
    const made = own.filter((claim) => !claim.restated);
    return {
      speaker,
      side,
      made: made.length,
      answeredByOther: made.filter((claim) => claim.status !== 'open').length,
      answersGiven: new Set(own.flatMap((claim) => (claim.answers ? [claim.answers] : []))).size,
      leftOpen: made.filter((claim) => claim.status === 'open').length,
      dropped: made.filter((claim) => claim.status === 'dropped').length,
    };
  });
}
