/**
 * Side swap: a judge asked twice, the second time with the sides presented in the other order.
 * A 7-8B judge often prefers whichever side it reads first; when its two answers disagree, neither
 * stands and the judgement is a tie. Both answers are kept in the event, with which side was shown
 * first each time, so position preference can be measured afterwards.
 */
import type { AssessmentEvent } from '../../core/events.js';

type Draft = Omit<AssessmentEvent, 'seq' | 'at'>;

/** What the judgement's format says about one answer. */
export interface SideSwapRules {
  /** The side each call presented first, in the run's own side names. */
  presentedFirst: [string, string];
  /** The side an answer picked, in the run's own side names (the second answer is mapped back). */
  pickOf: (result: Record<string, unknown>, call: 0 | 1) => string;
  /** The value that means neither side (`even`, `tie`). */
  tie: string;
  /** The combined answer: the first answer with the agreed pick, or the tie. */
  combine: (
    first: Record<string, unknown>,
    second: Record<string, unknown>,
    pick: string,
  ) => Record<string, unknown>;
}

/** The recorded facts of one side-swapped judgement, as stored in its result. */
export interface SideSwapRecord {
  presented_first: [string, string];
  picks: [string | null, string | null];
  answers: [Record<string, unknown> | null, Record<string, unknown> | null];
  agreed: boolean | null;
}

export function combineSideSwap(first: Draft, second: Draft, rules: SideSwapRules): Draft {
  const picks: SideSwapRecord['picks'] = [
    first.result ? rules.pickOf(first.result, 0) : null,
    second.result ? rules.pickOf(second.result, 1) : null,
  ];
  const agreed = picks[0] !== null && picks[1] !== null ? picks[0] === picks[1] : null;
  const record: SideSwapRecord = {
    presented_first: rules.presentedFirst,
    picks,
    answers: [first.result, second.result],
    agreed,
  };
  // Characters, tokens and cached tokens of both calls alike: the characters per token measured
  // from this event (and the window fitted with it) is then the model's own rate.
  const cached =
    first.cachedPromptTokens === undefined && second.cachedPromptTokens === undefined
      ? {}
      : { cachedPromptTokens: (first.cachedPromptTokens ?? 0) + (second.cachedPromptTokens ?? 0) };
  const usage = {
    promptTokens: first.promptTokens + second.promptTokens,
    ...cached,
    promptChars: first.promptChars + second.promptChars,
    outputTokens: first.outputTokens + second.outputTokens,
    realMs: first.realMs + second.realMs,
    attempts: first.attempts + second.attempts,
    ...(first.problems || second.problems
      ? { problems: [...(first.problems ?? []), ...(second.problems ?? [])] }
      : {}),
    ...(first.clamped || second.clamped
      ? { clamped: [...(first.clamped ?? []), ...(second.clamped ?? [])] }
      : {}),
  };
  let result: Record<string, unknown> | null = null;
  if (first.result && second.result) {
    result = rules.combine(first.result, second.result, agreed ? (picks[0] as string) : rules.tie);
  } else if (first.result ?? second.result) {
    // One answer is better than none: it stands alone, and the record says the check was not made.
    result = { ...(first.result ?? second.result) };
  }
  if (!result) {
    return { ...first, ...usage, callFailed: first.callFailed === true && second.callFailed === true };
  }
  const { reason: _reason, callFailed: _failed, ...kept } = first.result ? first : second;
  return { ...kept, ...usage, abstained: false, result: { ...result, side_swap: record } };
}
