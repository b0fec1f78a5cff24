/**
 * Where an argument map's claims come from. A knockout keeps a claims ledger: each statement's
 * claims, and which claim of the other side each one answers, as the note-taker recorded them
 * during the run. Formats without a ledger (formal, duel, a knockout with `claims: off`) get the key
 * sentences of each statement as its claims, linked by the format's rules and shared wording (see
 * `key-sentence-links.ts`); the map says which it shows.
 */
import { heuristicClaims } from '../agents/claim-extraction.js';
import { addClaims, type LedgerClaim } from '../agents/claims-ledger.js';
import type { Scenario } from '../config/scenario.js';
import type { ClaimsEvent, RunEvent, Stored } from '../core/events.js';
import type { MapInput, RawClaim, Spoken } from './argument-map-shape.js';
import { statementClaims } from './key-sentence-claims.js';
import { linkByWording, type StatementClaims } from './key-sentence-links.js';

const FORMAL_ROWS: Record<string, string> = {
  opening: 'Opening statements',
  rebuttal: 'Rebuttals',
  'cross-1': 'Cross-examination: the affirmative asks',
  'cross-2': 'Cross-examination: the negative asks',
  closing: 'Closing statements',
};

/** The two sides of a format that has them, left then right. */
export function mapSides(scenario: Scenario): Array<{ key: string; label: string }> | null {
  switch (scenario.format) {
    case 'knockout':
      return [
        { key: 'X', label: `Position X (${scenario.positions.x})` },
        { key: 'Y', label: `Position Y (${scenario.positions.y})` },
      ];
    case 'formal':
      return [
        { key: 'affirmative', label: `Affirmative (${scenario.positions.affirmative})` },
        { key: 'negative', label: `Negative (${scenario.positions.negative})` },
      ];
    case 'duel':
      return [
        { key: 'a', label: `A (${scenario.positions.a})` },
        { key: 'b', label: `B (${scenario.positions.b})` },
      ];
    default:
      return null;
  }
}

/** What the map is built from, or null when the run has no two sides (or has not started). */
export function mapInputOf(events: readonly RunEvent[]): MapInput | null {
  const start = events[0];
  if (start?.type !== 'run-start') return null;
  const scenario = start.scenario;
  const sides = mapSides(scenario);
  if (!sides) return null;
  const statements = spokenStatements(events);
  const ledger = standInClaims(
    events,
    events.filter((event): event is Stored<ClaimsEvent> => event.type === 'claims'),
  );
  // A ledger of key sentences only (no note-taker, or none of its answers usable) is no ledger to
  // speak of: its map is the key sentences linked by wording, and says so.
  if (scenario.format === 'knockout' && ledger.some((event) => event.source === 'model')) {
    return { ...fromLedger(ledger), sides, statements };
  }
  return { ...fromKeySentences(events, scenario), sides, statements };
}

/**
 * A note-taker's answer that left its statement no claim (logged before such a statement got its
 * key sentences in the run itself) gets them here, marked as key sentences.
 */
function standInClaims(
  events: readonly RunEvent[],
  ledger: Array<Stored<ClaimsEvent>>,
): Array<Stored<ClaimsEvent>> {
  return ledger.map((event) => {
    if (event.source !== 'model' || event.claims.length > 0) return event;
    const spoken = events.find(
      (candidate) =>
        candidate.type === 'turn-end' && candidate.round === event.round && candidate.agent === event.agent,
    );
    const text = spoken?.type === 'turn-end' ? spoken.text : '';
    return { ...event, source: 'heuristic', claims: heuristicClaims(text) };
  });
}

function spokenStatements(events: readonly RunEvent[]): Spoken[] {
  return events.flatMap((event): Spoken[] => {
    if (event.type === 'turn-end') return [{ side: event.position, speaker: event.agent, seq: event.seq }];
    if (event.type === 'statement' && event.phase !== 'preparation') {
      return [{ side: event.side, speaker: event.speaker, seq: event.seq }];
    }
    return [];
  });
}

function fromLedger(
  events: Array<Stored<ClaimsEvent>>,
): Pick<MapInput, 'source' | 'rows' | 'claims' | 'unread' | 'unlinked'> {
  let ledger: LedgerClaim[] = [];
  const seqOf = new Map<string, number>();
  for (const event of events) {
    ledger = addClaims(ledger, event);
    event.claims.forEach((_claim, index) => {
      seqOf.set(`${event.position}${event.round}.${index + 1}`, event.seq);
    });
  }
  const claims: RawClaim[] = ledger.map((claim) => ({
    id: claim.id,
    side: claim.position,
    speaker: claim.agent,
    round: claim.round,
    row: String(claim.round),
    seq: seqOf.get(claim.id) ?? 0,
    text: claim.claim,
    evidence: claim.evidence ?? '',
    restated: claim.kind === 'restated',
    answers: claim.answers,
  }));
  const rounds = [...new Set(events.map((event) => event.round))].sort((a, b) => a - b);
  return {
    source: 'ledger',
    rows: rounds.map((round) => ({ key: String(round), title: `Round ${round}` })),
    claims,
    unread: events.filter((event) => event.source === 'failed').length,
    unlinked: events.filter((event) => event.source === 'heuristic').length,
  };
}

/** The map's row of a statement: its round, or for a formal debate its phase. */
function rowOf(scenario: Scenario, phase: string, round: number): { key: string; title: string } {
  if (scenario.format !== 'formal') return { key: String(round), title: `Round ${round}` };
  // The plan's 7th and 8th statements are the affirmative's questions and their answers.
  const key = phase.startsWith('cross-') ? (round <= 8 ? 'cross-1' : 'cross-2') : phase;
  return { key, title: FORMAL_ROWS[key] ?? phase };
}

function fromKeySentences(
  events: readonly RunEvent[],
  scenario: Scenario,
): Pick<MapInput, 'source' | 'rows' | 'claims' | 'unread' | 'unlinked'> {
  const rows = new Map<string, string>();
  const spoken: StatementClaims[] = [];
  let unread = 0;
  for (const event of events) {
    const statement =
      event.type === 'turn-end'
        ? { phase: 'turn', side: event.position, speaker: event.agent, round: event.round, text: event.text }
        : event.type === 'statement' && event.phase !== 'preparation'
          ? {
              phase: event.phase,
              side: event.side,
              speaker: event.speaker,
              round: event.round,
              text: event.text,
            }
          : null;
    if (!statement) continue;
    const row = rowOf(scenario, statement.phase, statement.round);
    if (!rows.has(row.key)) rows.set(row.key, row.title);
    // An emergency statement is the engine's text, not the speaker's argument.
    if ((event.type === 'turn-end' || event.type === 'statement') && event.degraded) {
      unread += 1;
      continue;
    }
    const prefix = sidePrefix(statement.side);
    // Introductions left out; a sentence the speaker said before is merged into the claim it restates.
    const own = spoken.flatMap((item) => item.claims.filter((claim) => claim.speaker === statement.speaker));
    const { fresh, restated } = statementClaims(statement.text, own);
    for (const claim of own) {
      if (restated.includes(claim.id))
        claim.restatedIn = [...(claim.restatedIn ?? []), `${prefix}${statement.round}`];
    }
    spoken.push({
      phase: statement.phase,
      side: statement.side,
      claims: fresh.map((text, index) => ({
        id: `${prefix}${statement.round}.${index + 1}`,
        side: statement.side,
        speaker: statement.speaker,
        round: statement.round,
        row: row.key,
        seq: event.seq,
        text,
        evidence: '',
        restated: false,
        answers: null,
      })),
    });
  }
  const words = [scenario.topic, ...(mapSides(scenario) ?? []).map((side) => side.label)].join(' ');
  return {
    source: 'key-sentences',
    rows: [...rows].map(([key, title]) => ({ key, title })),
    claims: linkByWording(spoken, scenario.format, words),
    unread,
    unlinked: 0,
  };
}

/** A claim id's first letter: X or Y, A(ffirmative) or N(egative), A or B. */
function sidePrefix(side: string): string {
  if (side === 'affirmative') return 'A';
  if (side === 'negative') return 'N';
  return side.toUpperCase();
}
