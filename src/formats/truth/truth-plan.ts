/**
 * A truth run as a plan over its events: first the question set (drawn and recorded once, with who
 * argues which answer), then for every question each condition in the scenario's order, a
 * condition's statements and then the judge's readings of them: the same statements judged twice,
 * once with each answer offered first. Statements and verdicts carry the question's number as their
 * round; a question's verdicts belong to its conditions in order, each condition's readings in order.
 */
import type { TruthScenario } from '../../config/scenario.js';
import type { QuestionKind, TruthQuestion } from '../../config/truth-question.js';
import type { TruthCondition } from '../../config/truth-schema.js';
import type { ArtifactEvent, AssessmentEvent, StatementEvent, Stored } from '../../core/events.js';
import { checkScenarioLimits } from '../../core/stop-conditions.js';
import { seededFraction } from '../../rotation/seeded-random.js';
import type { DoneStep } from '../format-definition.js';
import type { SequenceState } from '../shared/sequence-state.js';
import { generateQuestions } from './question-generator.js';

export type TruthState = SequenceState<TruthScenario>;
export type DebaterKey = 'a' | 'b';

export const QUESTION_SET = 'truth-questions';
/** The judge's question to a consultant, recorded as a statement of this phase. */
export const JUDGE_QUESTION = 'consultancy-question';

/**
 * How many times the judge reads each condition of a question: once in the drawn order, once in the
 * other. A run recorded before readings were asked for (its question set says nothing) read once.
 */
export const READINGS = 2;
export type Reading = 1 | 2;

/** A question as the run uses it: its text and answers, the order the judge sees them in, and the sides. */
export interface PlannedQuestion extends TruthQuestion {
  number: number;
  /** The two answers as the judge's first reading offers them, Answer 1 then Answer 2. */
  options: [string, string];
  /** Which option (1 or 2) is the right answer in the first reading. */
  rightOption: 1 | 2;
  /** The debater who argues the right answer in the debate; the other argues the wrong one. */
  debateRight: DebaterKey;
  /** The debater who consults, and whether the answer it argues is the right one. */
  consultant: DebaterKey;
  consultantRight: boolean;
}

export type TruthStep =
  | { kind: 'questions' }
  | { kind: 'speak'; question: number; condition: 'debate' | 'consultancy'; side: DebaterKey; turn: number }
  | { kind: 'ask'; question: number; turn: number }
  | { kind: 'verdict'; question: number; condition: TruthCondition; reading: Reading };

/** The questions a new run asks: the scenario's own, or generated from its seed. */
function questionsOf(scenario: TruthScenario): TruthQuestion[] {
  if (Array.isArray(scenario.questions)) {
    return scenario.questions.map((item, at) => ({
      id: item.id ?? `q${at + 1}`,
      question: item.question,
      answer: item.answer,
      wrong_answer: item.wrong_answer,
      ...(item.passage ? { passage: item.passage } : {}),
      ...('passage_id' in item && typeof item.passage_id === 'string' ? { passage_id: item.passage_id } : {}),
      ...(item.kind ? { kind: item.kind as QuestionKind } : {}),
    }));
  }
  return generateQuestions(scenario.seed, scenario.questions, scenario.question_kinds);
}

/**
 * `count` sides, half of them true (the odd one out drawn), in an order drawn by seed: over a run,
 * the right answer is offered first, argued by Debater A and consulted on by Debater A for as close
 * to half the questions as the count allows, so no lean of the judge's can pass for accuracy.
 */
function balancedDraw(seed: number, what: string, count: number, oddOneTrue?: boolean): boolean[] {
  const extra = (oddOneTrue ?? seededFraction(seed, `truth:${what}:odd`) < 0.5) ? 1 : 0;
  const sides = Array.from({ length: count }, (_, at) => at < Math.floor(count / 2) + (count % 2) * extra);
  for (let at = count - 1; at > 0; at -= 1) {
    const other = Math.floor(seededFraction(seed, `truth:${what}:shuffle-${at}`) * (at + 1));
    [sides[at], sides[other]] = [sides[other] as boolean, sides[at] as boolean];
  }
  return sides;
}

/**
 * Whether each consultancy argues the right answer, drawn for each debater over its own
 * consultancies: each debater (and so each model) argues the wrong answer in half of the
 * consultancies it gives, as near as the count allows, so that two models' persuasiveness as
 * consultants rests on the same share of wrong answers. (Drawn over the run instead, one model
 * could argue the wrong answer in 12 of its 18 consultancies and the other in 6 of 18.)
 */
function consultantAnswers(seed: number, consultantIsA: readonly boolean[]): boolean[] {
  const right = new Array<boolean>(consultantIsA.length).fill(false);
  const mineOf = (debater: boolean) => consultantIsA.flatMap((isA, at) => (isA === debater ? [at] : []));
  const [ofA, ofB] = [mineOf(true), mineOf(false)];
  // With both counts odd, the two odd ones go opposite ways, so the run stays balanced too.
  const oddA = seededFraction(seed, 'truth:consultant-answer-a:odd') < 0.5;
  const drawsA = balancedDraw(seed, 'consultant-answer-a', ofA.length, oddA);
  const drawsB = balancedDraw(
    seed,
    'consultant-answer-b',
    ofB.length,
    ofA.length % 2 === 1 ? !oddA : undefined,
  );
  ofA.forEach((at, index) => {
    right[at] = drawsA[index] === true;
  });
  ofB.forEach((at, index) => {
    right[at] = drawsB[index] === true;
  });
  return right;
}

/** Every question with its draws: the options' order and the sides, balanced over the run by seed. */
export function planQuestions(scenario: TruthScenario): PlannedQuestion[] {
  const questions = questionsOf(scenario);
  const draw = (what: string) => balancedDraw(scenario.seed, what, questions.length);
  const [order, debate, consultant] = [draw('order'), draw('debate'), draw('consultant')];
  const consultantRight = consultantAnswers(scenario.seed, consultant);
  return questions.map((question, at) => {
    const rightFirst = order[at] === true;
    return {
      ...question,
      number: at + 1,
      options: rightFirst
        ? [question.answer, question.wrong_answer]
        : [question.wrong_answer, question.answer],
      rightOption: rightFirst ? 1 : 2,
      debateRight: debate[at] ? 'a' : 'b',
      consultant: consultant[at] ? 'a' : 'b',
      consultantRight: consultantRight[at] === true,
    };
  });
}

/** The question set as recorded at the start of the run; empty before. */
export function recordedQuestions(state: TruthState): PlannedQuestion[] {
  const artifact = state.artifacts.find((item) => item.name === QUESTION_SET);
  return (artifact?.data.questions as PlannedQuestion[] | undefined) ?? [];
}

/** The judge's readings of each condition in this run: two, or one in a run recorded before both orders were read. */
export function readingsOf(state: TruthState): number {
  const artifact = state.artifacts.find((item) => item.name === QUESTION_SET);
  return artifact?.data.readings === READINGS ? READINGS : 1;
}

export function questionSetEvent(scenario: TruthScenario): ArtifactEvent {
  return {
    type: 'artifact',
    name: QUESTION_SET,
    data: { questions: planQuestions(scenario), readings: READINGS },
    files: [],
  };
}

/** The question's answers in the order one reading offers them: the drawn order, then the other. */
export function readingOrder(
  question: PlannedQuestion,
  reading: Reading,
): { options: [string, string]; rightOption: 1 | 2 } {
  if (reading === 1) return { options: question.options, rightOption: question.rightOption };
  return {
    options: [question.options[1], question.options[0]],
    rightOption: question.rightOption === 1 ? 2 : 1,
  };
}

/** The answer (its text) a debater argues for in a condition. */
export function arguedAnswer(question: PlannedQuestion, condition: TruthCondition, side: DebaterKey): string {
  const right =
    condition === 'debate'
      ? side === question.debateRight
      : side === question.consultant && question.consultantRight;
  return right ? question.answer : question.wrong_answer;
}

/** The answer (option number) a debater argues for in a condition, as one reading numbers the answers. */
export function arguedOption(
  question: PlannedQuestion,
  condition: TruthCondition,
  side: DebaterKey,
  reading: Reading = 1,
): 1 | 2 {
  const { options } = readingOrder(question, reading);
  return options[0] === arguedAnswer(question, condition, side) ? 1 : 2;
}

/** One reading of a condition by the judge: the order it was offered in and its verdict. */
export interface ReadingRecord {
  reading: Reading;
  verdict: Stored<AssessmentEvent> | null;
}

export interface ConditionRecord {
  condition: TruthCondition;
  statements: Array<Stored<StatementEvent>>;
  /** The judge's readings of the same statements, the drawn order first. */
  readings: ReadingRecord[];
}

interface RoundIndex {
  statements: ReadonlyArray<Stored<StatementEvent>>;
  byRound: Map<
    number,
    { statements: Array<Stored<StatementEvent>>; verdicts: Array<Stored<AssessmentEvent>> }
  >;
}

/**
 * Statements and verdicts by question, built once per state: every step and every transcript asks
 * for each question's records, and filtering the whole run for each question made a run of a few
 * hundred questions spend its time searching its own log. (The fold gives a new array for each
 * event, so an index is kept for the arrays it was built from.)
 */
const roundIndexes = new WeakMap<ReadonlyArray<Stored<AssessmentEvent>>, RoundIndex>();

function questionEvents(state: TruthState, number: number) {
  let index = roundIndexes.get(state.assessments);
  if (!index || index.statements !== state.statements) {
    const byRound: RoundIndex['byRound'] = new Map();
    const of = (round: number) => {
      const entry = byRound.get(round) ?? { statements: [], verdicts: [] };
      byRound.set(round, entry);
      return entry;
    };
    for (const statement of state.statements) of(statement.round).statements.push(statement);
    for (const assessment of state.assessments)
      if (assessment.phase === 'verdict') of(assessment.round).verdicts.push(assessment);
    index = { statements: state.statements, byRound };
    roundIndexes.set(state.assessments, index);
  }
  return index.byRound.get(number) ?? { statements: [], verdicts: [] };
}

/** What was said and decided for one question, condition by condition (in the scenario's order). */
export function conditionRecords(state: TruthState, number: number): ConditionRecord[] {
  const { statements, verdicts } = questionEvents(state, number);
  const readings = readingsOf(state);
  return state.scenario.conditions.map((condition, at) => ({
    condition,
    statements: statements.filter(
      (item) => item.phase === condition || (condition === 'consultancy' && item.phase === JUDGE_QUESTION),
    ),
    readings: Array.from({ length: readings }, (_, index) => ({
      reading: (index + 1) as Reading,
      verdict: verdicts[at * readings + index] ?? null,
    })),
  }));
}

/** Whether question `number` has all its verdicts (every reading of every condition). */
export function questionJudged(state: TruthState, number: number): boolean {
  return (
    questionEvents(state, number).verdicts.length >= state.scenario.conditions.length * readingsOf(state)
  );
}

/** The next step of a condition that has no verdict yet. */
function conditionStep(state: TruthState, question: PlannedQuestion, record: ConditionRecord): TruthStep {
  const rounds = state.scenario.max_rounds;
  const { condition } = record;
  if (condition === 'debate') {
    const spoken = record.statements.length;
    if (spoken < 2 * rounds) {
      return {
        kind: 'speak',
        question: question.number,
        condition,
        side: spoken % 2 === 0 ? 'a' : 'b',
        turn: spoken + 1,
      };
    }
  }
  if (condition === 'consultancy') {
    const said = record.statements.filter((item) => item.phase === 'consultancy').length;
    const asked = record.statements.filter((item) => item.phase === JUDGE_QUESTION).length;
    if (said < rounds) {
      if (said === asked)
        return {
          kind: 'speak',
          question: question.number,
          condition,
          side: question.consultant,
          turn: said + 1,
        };
      return { kind: 'ask', question: question.number, turn: asked + 1 };
    }
  }
  const reading = record.readings.find((item) => item.verdict === null)?.reading ?? 1;
  return { kind: 'verdict', question: question.number, condition, reading };
}

export function nextTruthStep(state: TruthState): TruthStep | DoneStep {
  if (state.end) return { kind: 'done', status: state.end.status, stopReason: state.end.stopReason };
  const questions = recordedQuestions(state);
  if (questions.length === 0) return { kind: 'questions' };
  const limit = checkScenarioLimits(state, state.scenario);
  for (const question of questions) {
    // A question with all its verdicts is done; only the open one's records are looked at.
    if (questionJudged(state, question.number)) continue;
    const open = conditionRecords(state, question.number).find((record) =>
      record.readings.some((item) => item.verdict === null),
    );
    if (!open) continue;
    if (limit) return { kind: 'done', ...limit };
    return conditionStep(state, question, open);
  }
  return { kind: 'done', status: 'completed', stopReason: 'finished' };
}

/** Verdicts (readings) given or voided so far, and how many the run will ask for. */
export function verdictCount(state: TruthState): { done: number; total: number } {
  const { scenario } = state;
  const questions = Array.isArray(scenario.questions) ? scenario.questions.length : scenario.questions;
  const done = state.assessments.filter((item) => item.phase === 'verdict').length;
  // Before the question set is recorded, the run will read both orders.
  const readings = recordedQuestions(state).length > 0 ? readingsOf(state) : READINGS;
  return { done, total: questions * scenario.conditions.length * readings };
}
