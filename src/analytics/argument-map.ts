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
import type {
  ArgumentMap,
  ArgumentScore,
  ClaimStatus,
  MapClaim,
  MapInput,
  RawClaim,
} from './argument-map-shape.js';
import { supportLinks } from './key-sentence-links.js';

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
