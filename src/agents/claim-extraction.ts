/**
 * Claims extraction: after a statement, a small structured call lists the claims it makes. The
 * call shares the debate's prompt prefix (rules, transcript) and ends with this task, so on Ollama
 * only the task is new to the prompt cache. A heuristic mode takes key sentences instead (no call).
 *
 * The call is kept cheap, since every token it writes is decoding time in the round: at most three
 * claims, each given by a short quote (the first words of the sentence that makes it) rather than
 * written out, with no evidence field. The quote is matched to the statement word by word, forgiving
 * case, punctuation and one changed, missing or added word; a quote that matches no sentence of the
 * statement (a small model's paraphrase that drifted, or a sentence of the other side's) is dropped
 * and counted, and the claim the ledger records is the statement's own sentence (claim-quotes.ts).
 * What a claim answers is one of the other side's claim ids the call was shown, or "none": the
 * schema allows nothing else.
 */
import { z } from 'zod';
import type { ExtractedClaim, PositionLabel } from '../core/events.js';
import {
  answerJsonSchema,
  boundedList,
  boundedText,
  worstCaseAnswerTokens,
} from '../judging/answer-fields.js';
import { claimKey, quotedSentence } from './claim-quotes.js';
import { claimLine, type LedgerClaim } from './claims-ledger.js';
import { extractKeyPoints } from './key-points.js';

/** At most this many claims per statement: the main ones, which small models list reliably. */
export const MAX_CLAIMS = 3;
/** A quote is the opening words of a sentence: enough to find it, short to write. */
export const QUOTE_CHARS = 64;
/** The value of `answers` for a claim that answers none of the other side's claims. */
export const ANSWERS_NONE = 'none';
/** How long a claim line in the note-taker's lists may be: enough to tell the claims apart. */
const LISTED_CLAIM_CHARS = 140;

function claimsSchema(answerIds: readonly string[], claims: number) {
  return z.object({
    claims: boundedList(
      z.object({
        quote: boundedText(QUOTE_CHARS),
        kind: z.enum(['new', 'restated']),
        // Newest first, as listed in the task: a statement most often answers what was just said.
        answers: z.enum([...answerIds].reverse().concat(ANSWERS_NONE) as [string, ...string[]]),
      }),
      claims,
    ),
  });
}

/**
 * How many claims a cap leaves room for (at least one): as many as fit when every field is at its
 * bound, measured on the schema itself.
 */
export function claimsFor(maxTokens: number, answerIds: readonly string[] = []): number {
  for (let claims = MAX_CLAIMS; claims > 1; claims -= 1) {
    if (worstCaseAnswerTokens(answerJsonSchema(claimsSchema(answerIds, claims))) <= maxTokens) return claims;
  }
  return 1;
}

export function claimsAnswerSchema(answerIds: readonly string[], maxTokens: number) {
  return claimsSchema(answerIds, claimsFor(maxTokens, answerIds));
}

/** The JSON schema sent with the call: the answerable ids are its only allowed links. */
export function claimsJsonSchema(answerIds: readonly string[], maxTokens: number): Record<string, unknown> {
  return answerJsonSchema(claimsAnswerSchema(answerIds, maxTokens));
}

/** The other side's claims a new claim may answer: the open ones and the latest round's, newest last. */
export function answerableClaims(opponentClaims: readonly LedgerClaim[]): LedgerClaim[] {
  const latest = Math.max(0, ...opponentClaims.map((claim) => claim.round));
  return opponentClaims.filter((claim) => claim.answeredBy.length === 0 || claim.round === latest).slice(-6);
}

/** The last message of an extraction call. */
export function claimsTask(options: {
  agent: string;
  position: PositionLabel;
  round: number;
  /** The other side's claims a claim may answer (see `answerableClaims`). */
  answerable: readonly LedgerClaim[];
  /** The speaker's own side's earlier claims, which a claim may restate. */
  ownSideClaims: readonly LedgerClaim[];
  maxTokens: number;
}): string {
  const { agent, round } = options;
  // Short lines and the most relevant claims only: this task must stay small.
  // The other side's claims carry the ids "answers" is written with; the speaker's own side's need none.
  const list = (claims: readonly LedgerClaim[], id: boolean) =>
    claims.length === 0
      ? '(none yet)'
      : claims
          .map((claim) => `- ${claimLine(claim, { evidence: false, id, maxChars: LISTED_CLAIM_CHARS })}`)
          .join('\n');
  const example = options.answerable.at(-1)?.id ?? ANSWERS_NONE;
  const most = claimsFor(
    options.maxTokens,
    options.answerable.map((claim) => claim.id),
  );
  return [
    `## Your task: list the claims in ${agent}'s statement in round ${round}`,
    `You are the debate's note-taker, not a debater. The statement is the last one above (Position ${options.position}). List the main claims ${agent} makes in it, at most ${most}, most important first. A claim is a point ${agent} argues for; a concession, a greeting, or a summary of what the other side said is not a claim.`,
    `- "quote": the first 6 to 10 words of the sentence that makes the claim, copied word for word from ${agent}'s statement. Never write words that are not in the statement.`,
    `- "kind": "restated" when it repeats one of ${agent}'s side's earlier claims below, else "new".`,
    `- "answers": the id in brackets of the other side's claim it rebuts, from the list below, or "${ANSWERS_NONE}".`,
    '',
    "The other side's claims it may answer:",
    list([...options.answerable].reverse(), true),
    '',
    `${agent}'s side's earlier claims:`,
    list(options.ownSideClaims.filter((claim) => claim.kind === 'new').slice(-4), false),
    '',
    `Reply with the JSON object only, for example: {"claims": [{"quote": "<the first words of a sentence of the statement>", "kind": "new", "answers": "${example}"}]}`,
  ].join('\n');
}

export type ClaimsAnswer = z.infer<ReturnType<typeof claimsAnswerSchema>>;

/**
 * The claims of an answer whose quote is in the statement, each recorded as the statement's own
 * sentence that the quote is taken from; how many were dropped for not being there, and how many of
 * those kept were found with one word changed, missing or added (`near`).
 */
export function verifiedClaims(
  answer: ClaimsAnswer,
  statement: string,
): { claims: ExtractedClaim[]; unverified: number; near: number } {
  const claims: ExtractedClaim[] = [];
  let unverified = 0;
  let near = 0;
  const seen = new Set<string>();
  // Bracketed notes such as "[Time limit reached]" are the engine's, not the speaker's: never part of a claim.
  const said = statement.replace(/\[[^\]\n]*\]\s*$/gm, '').trimEnd();
  for (const claim of answer.claims) {
    const found = quotedSentence(claim.quote, said);
    if (found === null) {
      unverified += 1;
      continue;
    }
    const { sentence } = found;
    // Two quotes of one sentence are one claim.
    const key = claimKey(sentence);
    if (seen.has(key)) continue;
    seen.add(key);
    if (found.match === 'near') near += 1;
    claims.push({
      claim: sentence,
      kind: claim.kind,
      answers: claim.answers === ANSWERS_NONE ? null : claim.answers,
    });
  }
  return { claims, unverified, near };
}

/**
 * The kinds the ledger records, where the note-taker's cannot be right. A claim whose sentence the
 * speaker's side has already made is a restatement, whatever the note-taker called it: small
 * models repeat their own sentences word for word and mark them new, and the ledger would then list
 * one point twice among the claims still to answer. A claim of a side that has made none before is
 * new, whatever the note-taker called it: a restatement of nothing would leave a real claim out of
 * every list of claims still in play.
 */
export function settledClaimKinds(
  claims: readonly ExtractedClaim[],
  sideClaims: readonly { claim: string }[],
): ExtractedClaim[] {
  if (sideClaims.length === 0) {
    return claims.map((claim) => (claim.kind === 'restated' ? { ...claim, kind: 'new' } : claim));
  }
  const made = new Set(sideClaims.map((earlier) => claimKey(earlier.claim)));
  return claims.map((claim) =>
    claim.kind === 'new' && made.has(claimKey(claim.claim)) ? { ...claim, kind: 'restated' } : claim,
  );
}

/** Heuristic claims: a statement's key sentences, all new, answering nothing (no model call). */
export function heuristicClaims(text: string): ExtractedClaim[] {
  return extractKeyPoints(text, 3).map((point) => ({
    claim: point,
    kind: 'new',
    answers: null,
  }));
}
