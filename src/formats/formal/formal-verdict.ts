/**
 * The formal verdict's answer and how the engine settles it: the winner follows the judge's own
 * weighted totals, whatever side it names, and with side swap on the two orders must agree.
 */
import { z } from 'zod';
import type { FormalSide } from '../../config/formal-sides.js';
import { boundedInteger, boundedText } from '../../judging/answer-fields.js';
import type { Criteria } from '../../judging/criteria.js';
import { SCORE_MAX, SCORE_MIN, weightedTotal } from '../../judging/criteria.js';
import type { SideSwapRules } from '../shared/side-swap.js';
import { verdictChars } from './formal-verdict-prompts.js';

/**
 * The answer: its summary and reasons first, then the scores, then the winner; `first` orders the
 * sides as the prompt presents them, since a structured-output grammar makes the model write the
 * properties in schema order. Texts are sized to fit `maxTokens`.
 */
export function verdictSchema(criteria: string[], first: FormalSide = 'affirmative', maxTokens = 400) {
  const scores = z.object(
    Object.fromEntries(criteria.map((name) => [name, boundedInteger(SCORE_MIN, SCORE_MAX)])),
  );
  const sides =
    first === 'affirmative'
      ? { affirmative: scores, negative: scores }
      : { negative: scores, affirmative: scores };
  const chars = verdictChars(maxTokens);
  return z.object({
    summary: boundedText(chars.summary),
    reasons: boundedText(chars.reasons),
    ...sides,
    winner: z.enum(first === 'affirmative' ? ['affirmative', 'negative'] : ['negative', 'affirmative']),
  }) as unknown as z.ZodObject<{
    summary: z.ZodString;
    reasons: z.ZodString;
    affirmative: z.ZodObject<Record<string, z.ZodNumber>>;
    negative: z.ZodObject<Record<string, z.ZodNumber>>;
    winner: z.ZodEnum<{ affirmative: 'affirmative'; negative: 'negative' }>;
  }>;
}

export type VerdictAnswer = z.infer<ReturnType<typeof verdictSchema>>;

/**
 * Weighted totals, and the winner they give: a judge that names the side it scored lower is
 * overruled by its own scores (and flagged); on equal totals its named winner stands.
 */
export function settleVerdict(answer: VerdictAnswer, criteria: Criteria) {
  const totals = {
    affirmative: weightedTotal(answer.affirmative, criteria),
    negative: weightedTotal(answer.negative, criteria),
  };
  const byScores: FormalSide | null =
    totals.affirmative > totals.negative
      ? 'affirmative'
      : totals.negative > totals.affirmative
        ? 'negative'
        : null;
  const winner = byScores ?? answer.winner;
  return {
    totals,
    winner,
    ...(winner !== answer.winner ? { named_winner: answer.winner, winner_contradicts_scores: true } : {}),
  };
}

/** Side swap for the verdict: the labels keep their meaning (for and against), only the order changes. */
export const verdictSideSwap: SideSwapRules = {
  presentedFirst: ['affirmative', 'negative'],
  pickOf: (result) => String(result.winner),
  tie: 'tie',
  // A tie from two readings that disagree keeps no one-sided word at the top: the contradiction
  // flag and the named winner belong to one reading, and stay in that reading's answer.
  combine: (first, _second, pick) => {
    if (pick !== 'tie') return { ...first, winner: pick };
    const { named_winner: _named, winner_contradicts_scores: _contradicts, ...rest } = first;
    return { ...rest, winner: pick };
  },
};

/** The note a verdict carries when the engine's winner is not the one the judge named, or the orders disagreed. */
export function verdictNotes(verdict: Record<string, unknown>): string[] {
  const notes: string[] = [];
  if (verdict.winner_contradicts_scores && verdict.winner !== 'tie') {
    notes.push(
      `The judge named ${verdict.named_winner} the winner, but its own weighted totals favour ${verdict.winner}; the totals decide.`,
    );
  }
  const swap = verdict.side_swap as { picks: Array<string | null>; agreed: boolean | null } | undefined;
  if (swap?.agreed === false) {
    notes.push(
      `Asked twice with the sides in swapped order, the judge picked ${swap.picks[0]} and then ${swap.picks[1]}; the disagreement is recorded as a tie.`,
    );
  } else if (swap?.agreed === null) {
    notes.push('Only one of the two side-swapped answers was usable; it stands unchecked.');
  }
  return notes;
}
