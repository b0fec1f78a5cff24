/**
 * Claims extraction: after a statement, a small structured call lists the claims it makes. The
 * call shares the debate's prompt prefix (rules, transcript) and ends with this task, so on Ollama
 * only the task is new to the prompt cache. A heuristic mode takes key sentences instead (no call).
 */
import { z } from 'zod';
import type { ExtractedClaim, PositionLabel } from '../core/events.js';
import { claimLine, type LedgerClaim } from './claims-ledger.js';
import { extractKeyPoints } from './key-points.js';

/** At most this many claims per statement: small models list the main ones reliably, not twenty. */
export const MAX_CLAIMS = 4;

const answerSchema = z.object({
  claims: z
    .array(
      z.object({
        claim: z.string(),
        kind: z.enum(['new', 'restated']),
        answers: z.string(),
        evidence: z.string(),
      }),
    )
    .max(MAX_CLAIMS + 2),
});

let jsonSchema: Record<string, unknown> | undefined;

/** The JSON schema sent as Ollama's `format`. */
export function claimsJsonSchema(): Record<string, unknown> {
  if (!jsonSchema) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(answerSchema) as Record<string, unknown>;
    jsonSchema = rest;
  }
  return jsonSchema;
}

/** The last message of an extraction call. */
export function claimsTask(options: {
  agent: string;
  position: PositionLabel;
  round: number;
  /** The other side's claims so far, which a claim may answer. */
  opponentClaims: readonly LedgerClaim[];
  /** The speaker's own side's earlier claims, which a claim may restate. */
  ownSideClaims: readonly LedgerClaim[];
}): string {
  // Short lines (no evidence) and the most relevant claims only: this task must stay small.
  const list = (claims: readonly LedgerClaim[]) =>
    claims.length === 0
      ? '(none yet)'
      : claims.map((claim) => `- ${claimLine(claim, { evidence: false })}`).join('\n');
  return [
    `## Your task: list the claims in ${options.agent}'s statement in round ${options.round}`,
    `Read ${options.agent}'s statement in round ${options.round} above (Position ${options.position}). You are the debate's note-taker, not a debater.`,
    `List the distinct claims ${options.agent} makes in that statement, at most ${MAX_CLAIMS}, most important first. A claim is a point ${options.agent} argues for. A concession, a greeting, or a summary of what the other side said is not a claim.`,
    '',
    "The other side's claims so far (a claim may answer one of these; use its id):",
    // The claims still open, and the latest round's (which a new statement most often answers).
    list(
      options.opponentClaims
        .filter(
          (claim) =>
            claim.answeredBy.length === 0 ||
            claim.round === Math.max(...options.opponentClaims.map((other) => other.round)),
        )
        .slice(-8),
    ),
    '',
    `${options.agent}'s side's earlier claims (a claim that repeats one of these is "restated"):`,
    list(options.ownSideClaims.filter((claim) => claim.kind === 'new').slice(-5)),
    '',
    'Reply with this JSON object only:',
    '{"claims": [{"claim": "<the claim in one sentence>", "kind": "new" or "restated", "answers": "<the id of the other side\'s claim it rebuts, e.g. X1.2, or an empty string>", "evidence": "<the evidence or example it names, or an empty string>"}]}',
  ].join('\n');
}

/** Parses an extraction answer; ids that are not the other side's known claims become null. */
export function parseClaims(
  text: string,
  validAnswerIds: ReadonlySet<string>,
): { ok: true; claims: ExtractedClaim[] } | { ok: false; problem: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'the answer is not valid JSON' };
  }
  const parsed = answerSchema.safeParse(data);
  if (!parsed.success) return { ok: false, problem: parsed.error.issues[0]?.message ?? 'invalid answer' };
  const claims = parsed.data.claims
    .filter((claim) => claim.claim.trim() !== '')
    .slice(0, MAX_CLAIMS)
    .map((claim) => {
      const id = claim.answers.trim().replace(/^\[|\]$/g, '');
      return {
        claim: claim.claim.trim(),
        kind: claim.kind,
        answers: validAnswerIds.has(id) ? id : null,
        evidence: claim.evidence.trim(),
      };
    });
  return { ok: true, claims };
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
