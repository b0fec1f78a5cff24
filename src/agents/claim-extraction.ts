/**
 * Claims extraction: after a statement, a small structured call lists the claims it makes. The
 * call shares the debate's prompt prefix (rules, transcript) and ends with this task, so on Ollama
 * only the task is new to the prompt cache. A heuristic mode takes key sentences instead (no call).
 *
 * A claim is the statement's own sentence, copied: a claim that is not in the statement it came
 * from (a small model's paraphrase that drifted, or a sentence of the other side's) is dropped and
 * counted, so the ledger says only what was said. What a claim answers is one of the other side's
 * claim ids the call was shown, or "none": the schema allows nothing else.
 */
import { z } from 'zod';
import type { ExtractedClaim, PositionLabel } from '../core/events.js';
import { answerJsonSchema, boundedList, boundedText, optionalText } from '../judging/answer-fields.js';
import { claimLine, type LedgerClaim } from './claims-ledger.js';
import { extractKeyPoints } from './key-points.js';

/** At most this many claims per statement: small models list the main ones reliably, not twenty. */
export const MAX_CLAIMS = 4;
export const CLAIM_CHARS = 200;
export const EVIDENCE_CHARS = 100;
/** What one claim can take of the cap, at most: its text, its evidence, its kind and its link. */
const TOKENS_PER_CLAIM = 140;
/** The value of `answers` for a claim that answers none of the other side's claims. */
export const ANSWERS_NONE = 'none';

/** How many claims a cap leaves room for (at least one). */
export function claimsFor(maxTokens: number): number {
  return Math.max(1, Math.min(MAX_CLAIMS, Math.floor((maxTokens - 16) / TOKENS_PER_CLAIM)));
}

export function claimsAnswerSchema(answerIds: readonly string[], maxTokens: number) {
  return z.object({
    claims: boundedList(
      z.object({
        claim: boundedText(CLAIM_CHARS),
        kind: z.enum(['new', 'restated']),
        // Newest first, as listed in the task: a statement most often answers what was just said.
        answers: z.enum([...answerIds].reverse().concat(ANSWERS_NONE) as [string, ...string[]]),
        evidence: optionalText(EVIDENCE_CHARS),
      }),
      claimsFor(maxTokens),
    ),
  });
}

/** The JSON schema sent with the call: the answerable ids are its only allowed links. */
export function claimsJsonSchema(answerIds: readonly string[], maxTokens: number): Record<string, unknown> {
  return answerJsonSchema(claimsAnswerSchema(answerIds, maxTokens));
}

/** The other side's claims a new claim may answer: the open ones and the latest round's, newest last. */
export function answerableClaims(opponentClaims: readonly LedgerClaim[]): LedgerClaim[] {
  const latest = Math.max(0, ...opponentClaims.map((claim) => claim.round));
  return opponentClaims.filter((claim) => claim.answeredBy.length === 0 || claim.round === latest).slice(-8);
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
  // Short lines (no evidence) and the most relevant claims only: this task must stay small.
  const list = (claims: readonly LedgerClaim[]) =>
    claims.length === 0
      ? '(none yet)'
      : claims.map((claim) => `- ${claimLine(claim, { evidence: false })}`).join('\n');
  const example = options.answerable.at(-1)?.id ?? ANSWERS_NONE;
  const most = claimsFor(options.maxTokens);
  return [
    `## Your task: list the claims in ${agent}'s statement in round ${round}`,
    `You are the debate's note-taker, not a debater. Read ${agent}'s statement in round ${round} above (Position ${options.position}), the last statement of the debate so far.`,
    `List the distinct claims ${agent} makes in it, at most ${most}, most important first. A claim is a point ${agent} argues for; a concession, a greeting, or a summary of what the other side said is not a claim.`,
    `- "claim": the sentence of ${agent}'s statement that makes the claim, copied word for word (at most ${CLAIM_CHARS} characters; shorten a long sentence with "..." where you leave words out). Never write a sentence that is not in the statement.`,
    `- "kind": "restated" when it repeats one of ${agent}'s side's earlier claims below, else "new".`,
    `- "answers": the id of the other side's claim it rebuts, from the list below, or "${ANSWERS_NONE}".`,
    `- "evidence": the evidence or example it names, in a few words, or "".`,
    '',
    "The other side's claims it may answer:",
    list([...options.answerable].reverse()),
    '',
    `${agent}'s side's earlier claims:`,
    list(options.ownSideClaims.filter((claim) => claim.kind === 'new').slice(-5)),
    '',
    `Reply with the JSON object only, for example: {"claims": [{"claim": "<a sentence copied from the statement>", "kind": "new", "answers": "${example}", "evidence": ""}]}`,
  ].join('\n');
}

/** Text reduced to what a verbatim check should compare: lower case, plain quotes, single spaces. */
function normalised(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * True when `claim` is the statement's own words: every part of it between "..." elisions (with
 * its end punctuation and surrounding quotes ignored) appears in the statement, in order.
 */
export function isInStatement(claim: string, statement: string): boolean {
  const text = normalised(statement);
  const parts = normalised(claim)
    .split(/\.\.\.|…/)
    .map((part) => part.replace(/^[\s"'.,;:!?-]+|[\s"'.,;:!?-]+$/g, ''))
    .filter((part) => part !== '');
  if (parts.length === 0) return false;
  // A claim made only of tiny fragments proves nothing.
  if (parts.join(' ').split(' ').length < 4) return false;
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    if (at === -1) return false;
    from = at + part.length;
  }
  return true;
}

export type ClaimsAnswer = z.infer<ReturnType<typeof claimsAnswerSchema>>;

/** The claims of an answer that are in the statement, and how many were dropped for not being there. */
export function verifiedClaims(
  answer: ClaimsAnswer,
  statement: string,
): { claims: ExtractedClaim[]; unverified: number } {
  const claims: ExtractedClaim[] = [];
  let unverified = 0;
  const seen = new Set<string>();
  for (const claim of answer.claims) {
    // The same sentence listed twice is one claim.
    const key = normalised(claim.claim);
    if (seen.has(key)) continue;
    seen.add(key);
    if (!isInStatement(claim.claim, statement)) {
      unverified += 1;
      continue;
    }
    claims.push({
      claim: claim.claim.trim(),
      kind: claim.kind,
      answers: claim.answers === ANSWERS_NONE ? null : claim.answers,
      evidence: claim.evidence.trim(),
    });
  }
  return { claims, unverified };
}

/** Heuristic claims: a statement's key sentences, all new, answering nothing (no model call). */
export function heuristicClaims(text: string): ExtractedClaim[] {
  return extractKeyPoints(text, 3).map((point) => ({
    claim: point,
    kind: 'new',
    answers: null,
    evidence: '',
  }));
}
