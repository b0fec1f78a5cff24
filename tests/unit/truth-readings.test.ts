import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { accuracyInterval } from '../../src/analytics/truth-accuracy.js';
import { parseScenario } from '../../src/config/load-scenario.js';
import type { TruthScenario } from '../../src/config/scenario.js';
import type { RunEvent } from '../../src/core/events.js';
import { truthFormat } from '../../src/formats/truth/index.js';
import {
  arguedAnswer,
  arguedOption,
  nextTruthStep,
  questionSetEvent,
  readingOrder,
  recordedQuestions,
  type TruthState,
  type TruthStep,
  verdictCount,
} from '../../src/formats/truth/truth-plan.js';
import { debaterMessages, verdictMessages } from '../../src/formats/truth/truth-prompts.js';
import { truthSummary } from '../../src/formats/truth/truth-results.js';

async function scenario(extra: Record<string, unknown> = {}): Promise<TruthScenario> {
  const text = stringify({
    format: 'truth',
    seed: 5,
    questions: [
      {
        id: 'p1',
        question: 'Who chaired?',
        answer: 'Ines',
        wrong_answer: 'Tomas',
        passage: 'Ines chaired. Tomas spoke.',
      },
      {
        id: 'p2',
        question: 'Who spoke?',
        answer: 'Tomas',
        wrong_answer: 'Ines',
        passage: 'Ines chaired. Tomas spoke.',
      },
      { id: 'c1', question: 'How many legs has a spider?', answer: '8', wrong_answer: '6' },
    ],
    conditions: ['direct', 'consultancy', 'debate'],
    max_rounds: 1,
    debaters: { a: { model: 'llama3' }, b: { model: 'mistral' } },
    judge: { model: 'qwen2.5' },
    ...extra,
  });
  return (await parseScenario(text, '/nowhere/truth.yaml')) as TruthScenario;
}

let seq = 0;
const at = () => new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString();

function fold(state: TruthState | undefined, event: object): TruthState {
  seq += 1;
  return truthFormat.fold(state, { ...event, seq, at: at() } as unknown as RunEvent);
}

/** Runs the plan to its end, each statement naming its answer, each verdict from `pick`. */
function playRun(
  start: TruthState,
  pick: (step: Extract<TruthStep, { kind: 'verdict' }>, state: TruthState) => '1' | '2' | null,
): { state: TruthState; steps: TruthStep[] } {
  let state = start;
  const steps: TruthStep[] = [];
  for (let guard = 0; guard < 200; guard += 1) {
    const step = nextTruthStep(state);
    if (step.kind === 'done') return { state, steps };
    steps.push(step);
    const usage = { promptTokens: 1, promptChars: 1, outputTokens: 1, realMs: 1, attempts: 1 };
    if (step.kind === 'questions') state = fold(state, questionSetEvent(state.scenario));
    else if (step.kind === 'speak' || step.kind === 'ask') {
      const question = recordedQuestions(state)[step.question - 1];
      const side = step.kind === 'ask' ? 'judge' : step.side;
      const text =
        step.kind === 'ask' || !question
          ? 'Why?'
          : `It is ${arguedAnswer(question, step.condition, step.side)}.`;
      const phase = step.kind === 'ask' ? 'consultancy-question' : step.condition;
      state = fold(state, {
        type: 'statement',
        phase,
        round: step.question,
        speaker: side,
        side,
        model: 'm',
        text,
        truncated: false,
        ...usage,
      });
    } else {
      const answer = pick(step, state);
      state = fold(state, {
        type: 'assessment',
        phase: 'verdict',
        round: step.question,
        judge: 'Judge',
        model: 'qwen2.5',
        result: answer ? { reasoning: 'r', answer, confidence: 70 } : null,
        abstained: answer === null,
        ...(answer === null ? { reason: 'no usable answer' } : {}),
        ...usage,
      });
    }
  }
  throw new Error('the plan did not end');
}

async function started(extra: Record<string, unknown> = {}): Promise<TruthState> {
  return fold(undefined, {
    type: 'run-start',
    runId: 'r',
    format: 'truth',
    scenario: await scenario(extra),
    engineVersion: '0',
  });
}

describe('a truth question read in both answer orders', () => {
  it('judges every condition twice, the statements once, the second reading in the other order', async () => {
    const { state, steps } = playRun(await started(), () => '1');
    const verdicts = steps.filter((step) => step.kind === 'verdict');
    // 3 questions, 3 conditions, 2 readings each.
    expect(verdicts).toHaveLength(18);
    expect(verdictCount(state)).toEqual({ done: 18, total: 18 });
    // Per question and condition: its statements, then reading 1, then reading 2.
    const ofFirst = steps
      .filter((step) => 'question' in step && step.question === 1)
      .map((step) =>
        step.kind === 'verdict'
          ? `${step.condition}:${step.reading}`
          : step.kind === 'speak'
            ? `${step.condition}-${step.side}`
            : step.kind,
      );
    const consultant = recordedQuestions(state)[0]?.consultant;
    expect(ofFirst).toEqual([
      'direct:1',
      'direct:2',
      `consultancy-${consultant}`,
      'consultancy:1',
      'consultancy:2',
      'debate-a',
      'debate-b',
      'debate:1',
      'debate:2',
    ]);
    for (const question of recordedQuestions(state)) {
      const [one, two] = [readingOrder(question, 1), readingOrder(question, 2)];
      expect(two.options).toEqual([one.options[1], one.options[0]]);
      expect(one.options[one.rightOption - 1]).toBe(question.answer);
      expect(two.options[two.rightOption - 1]).toBe(question.answer);
      for (const side of ['a', 'b'] as const) {
        // A debater's answer keeps its words and changes its number between readings.
        expect(one.options[arguedOption(question, 'debate', side, 1) - 1]).toBe(
          arguedAnswer(question, 'debate', side),
        );
        expect(two.options[arguedOption(question, 'debate', side, 2) - 1]).toBe(
          arguedAnswer(question, 'debate', side),
        );
      }
      // The judge sees the answers numbered in its reading's order; the same statements both times.
      const first = verdictMessages(state, question, 'debate', 1)
        .map((message) => message.content)
        .join('\n');
      const second = verdictMessages(state, question, 'debate', 2)
        .map((message) => message.content)
        .join('\n');
      expect(first).toContain(`Answer 1: ${one.options[0]}\nAnswer 2: ${one.options[1]}`);
      expect(second).toContain(`Answer 1: ${two.options[0]}\nAnswer 2: ${two.options[1]}`);
      for (const side of ['a', 'b'] as const)
        for (const text of [first, second])
          expect(text).toContain(`It is ${arguedAnswer(question, 'debate', side)}.`);
      // Debaters see no numbers to name the answers by.
      const debater = debaterMessages(state, question, 'debate', 'a', 1)
        .map((message) => message.content)
        .join('\n');
      expect(debater).not.toMatch(/Answer [12]/);
      expect(debater).toContain(
        `You argue that the right answer is: ${arguedAnswer(question, 'debate', 'a')}.`,
      );
    }
  });

  it('counts both readings, questions in the intervals, order flips and unread readings', async () => {
    // A judge that always picks the first answer: each question right in exactly one reading.
    const { state } = playRun(await started(), (step) =>
      step.condition === 'consultancy' && step.question === 3 && step.reading === 2 ? null : '1',
    );
    // The bootstrap over passages is drawn once the run has ended.
    const summary = truthSummary(
      fold(state, { type: 'run-end', status: 'completed', stopReason: 'finished' }),
    );
    const direct = summary.conditions.find((row) => row.condition === 'direct');
    expect(direct?.accuracy).toMatchObject({ correct: 3, n: 6, questions: 3, rate: 0.5 });
    // Every question's two readings chose different answers.
    expect(direct?.orderFlips).toEqual({ count: 3, of: 3 });
    const consultancy = summary.conditions.find((row) => row.condition === 'consultancy');
    expect(consultancy?.noVerdict).toBe(1);
    expect(consultancy?.accuracy).toMatchObject({ n: 5, questions: 3 });
    expect(consultancy?.orderFlips.of).toBe(2);
    // Readings are what the unparsed share counts.
    expect(summary.unparsed).toMatchObject({ count: 1, of: 18 });
    // The interval rests on 3 questions, not 6 readings: Wilson's for 1.5 right of 3.
    const byQuestion = accuracyInterval(1.5, 3);
    expect(direct?.accuracy?.low).toBeCloseTo(byQuestion?.low ?? Number.NaN, 12);
    expect(direct?.accuracy?.high).toBeCloseTo(byQuestion?.high ?? Number.NaN, 12);
    expect((direct?.accuracy?.high ?? 0) - (direct?.accuracy?.low ?? 0)).toBeGreaterThan(
      (accuracyInterval(3, 6)?.high ?? 0) - (accuracyInterval(3, 6)?.low ?? 0),
    );
    const debateDirect = summary.differences.find((row) => row.first === 'debate' && row.second === 'direct');
    // Two readings of a question pair as halves of one question, in its passage's cluster.
    expect(debateDirect?.difference?.n).toBe(3);
    expect(debateDirect?.clustered).toMatchObject({ n: 3, clusters: 2, difference: 0 });
  });

  it('reads a run recorded before both orders were asked for once per condition', async () => {
    let state = await started();
    const set = questionSetEvent(state.scenario);
    state = fold(state, { ...set, data: { questions: set.data.questions } });
    const { steps } = playRun(state, () => '1');
    expect(steps.filter((step) => step.kind === 'verdict')).toHaveLength(9);
  });
});
