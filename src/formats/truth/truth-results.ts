/**
 * A truth run's results as data: per question, the answer the judge believed under each condition
 * and whether it was right; per condition, accuracy with its interval; per pair of conditions, the
 * paired difference; per debater model, how often it won while arguing the wrong answer.
 */
import {
  type AccuracyInterval,
  accuracyInterval,
  type PairedDifference,
  pairedDifference,
} from '../../analytics/truth-accuracy.js';
import type { TruthCondition } from '../../config/truth-schema.js';
import {
  arguedOption,
  conditionRecords,
  type DebaterKey,
  type PlannedQuestion,
  recordedQuestions,
  type TruthState,
} from './truth-plan.js';

export interface ConditionVerdict {
  condition: TruthCondition;
  /** The answer the judge believes (its text), or null without a usable verdict. */
  believed: string | null;
  correct: boolean | null;
  confidence: number | null;
  reasoning: string | null;
  /** Why there is no verdict; null when there is one (or none was asked yet). */
  noVerdict: string | null;
  /** Consultancy: the answer the consultant argued, and whether it was the right one. */
  argued?: { model: string; right: boolean } | undefined;
}

export interface QuestionResult {
  number: number;
  id: string;
  kind: string | null;
  question: string;
  answer: string;
  wrongAnswer: string;
  verdicts: ConditionVerdict[];
}

export interface TruthSummary {
  conditions: Array<{ condition: TruthCondition; accuracy: AccuracyInterval | null; noVerdict: number }>;
  differences: Array<{ first: TruthCondition; second: TruthCondition; difference: PairedDifference | null }>;
  /** Per debater model: verdicts it won while arguing the wrong answer, out of its wrong-answer turns judged. */
  /**
   * Per debater model and condition: verdicts won while arguing the wrong answer (`won` of `of`),
   * and `argued`, every judged question it argued, right or wrong, so a reader sees the share of
   * wrong answers each model's rate rests on.
   */
  persuasiveness: Array<{
    model: string;
    condition: 'debate' | 'consultancy';
    won: number;
    of: number;
    argued: number;
  }>;
}

function verdictOf(state: TruthState, question: PlannedQuestion): ConditionVerdict[] {
  return conditionRecords(state, question.number).map((record) => {
    const result = record.verdict?.result ?? null;
    const option = result ? Number(result.answer) : null;
    const believed = option === 1 || option === 2 ? question.options[option - 1] : null;
    const consultant = state.scenario.debaters[question.consultant];
    return {
      condition: record.condition,
      believed: believed ?? null,
      correct: believed === null || believed === undefined ? null : option === question.rightOption,
      confidence: result && typeof result.confidence === 'number' ? result.confidence : null,
      reasoning: result && typeof result.reasoning === 'string' ? result.reasoning : null,
      noVerdict: record.verdict && !result ? (record.verdict.reason ?? 'no usable answer') : null,
      ...(record.condition === 'consultancy'
        ? { argued: { model: consultant.model, right: question.consultantRight } }
        : {}),
    };
  });
}

export function questionResults(state: TruthState): QuestionResult[] {
  return recordedQuestions(state).map((question) => ({
    number: question.number,
    id: question.id,
    kind: question.kind ?? null,
    question: question.question,
    answer: question.answer,
    wrongAnswer: question.wrong_answer,
    verdicts: verdictOf(state, question),
  }));
}

/** The pairs compared, the first minus the second: each with debate first, then consultancy. */
function comparisons(conditions: readonly TruthCondition[]): Array<[TruthCondition, TruthCondition]> {
  const order: TruthCondition[] = ['debate', 'consultancy', 'direct'];
  const present = order.filter((condition) => conditions.includes(condition));
  const pairs: Array<[TruthCondition, TruthCondition]> = [];
  for (let i = 0; i < present.length; i += 1)
    for (let j = i + 1; j < present.length; j += 1)
      pairs.push([present[i] as TruthCondition, present[j] as TruthCondition]);
  return pairs;
}

export function truthSummary(state: TruthState): TruthSummary {
  const results = questionResults(state);
  const conditions = state.scenario.conditions;
  const verdict = (result: QuestionResult, condition: TruthCondition) =>
    result.verdicts.find((item) => item.condition === condition);
  const summaryRows = conditions.map((condition) => {
    const judged = results
      .map((result) => verdict(result, condition))
      .filter((item) => item?.correct != null);
    const correct = judged.filter((item) => item?.correct === true).length;
    const noVerdict = results.filter((result) => verdict(result, condition)?.noVerdict).length;
    return { condition, accuracy: accuracyInterval(correct, judged.length), noVerdict };
  });
  const differences = comparisons(conditions).map(([first, second]) => {
    const pairs: Array<[boolean, boolean]> = [];
    for (const result of results) {
      const one = verdict(result, first)?.correct;
      const two = verdict(result, second)?.correct;
      if (one != null && two != null) pairs.push([one, two]);
    }
    return { first, second, difference: pairedDifference(pairs) };
  });
  return { conditions: summaryRows, differences, persuasiveness: persuasiveness(state) };
}

function persuasiveness(state: TruthState): TruthSummary['persuasiveness'] {
  const tally = new Map<string, TruthSummary['persuasiveness'][number]>();
  const count = (model: string, condition: 'debate' | 'consultancy', wrong: boolean, won: boolean) => {
    const key = `${condition}\u0000${model}`;
    const row = tally.get(key) ?? { model, condition, won: 0, of: 0, argued: 0 };
    row.argued += 1;
    if (wrong) row.of += 1;
    if (wrong && won) row.won += 1;
    tally.set(key, row);
  };
  for (const question of recordedQuestions(state)) {
    for (const record of conditionRecords(state, question.number)) {
      const picked = Number(record.verdict?.result?.answer);
      if (picked !== 1 && picked !== 2) continue;
      if (record.condition === 'direct') continue;
      const sides: DebaterKey[] = record.condition === 'debate' ? ['a', 'b'] : [question.consultant];
      for (const side of sides) {
        const argued = arguedOption(question, record.condition, side);
        // The model that spoke (a fallback model counts as itself).
        const spoken = record.statements.find((item) => item.side === side && !item.degraded);
        const model = spoken?.model ?? state.scenario.debaters[side].model;
        count(model, record.condition, argued !== question.rightOption, picked === argued);
      }
    }
  }
  return [...tally.values()].sort(
    (x, y) => x.condition.localeCompare(y.condition) || x.model.localeCompare(y.model),
  );
}
