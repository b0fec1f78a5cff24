/** What an argument map holds (claims, links, scores), and the claims as read before they are linked. */
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
