import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseScenario } from '../../src/config/load-scenario.js';
import type { TruthScenario } from '../../src/config/scenario.js';
import { truthVerdictSchema } from '../../src/formats/truth/index.js';
import { arguedOption, planQuestions } from '../../src/formats/truth/truth-plan.js';
import { answerJsonSchema } from '../../src/judging/answer-fields.js';
import { createRng } from '../../src/mock-ollama/random.js';
import { truthJudgeAnswer } from '../../src/mock-ollama/truth-judge.js';

async function scenario(extra: Record<string, unknown> = {}): Promise<TruthScenario> {
  const text = stringify({
    format: 'truth',
    seed: 5,
    debaters: { a: { model: 'llama3' }, b: { model: 'mistral' } },
    judge: { model: 'qwen2.5' },
    ...extra,
  });
  return (await parseScenario(text, '/nowhere/truth.yaml')) as TruthScenario;
}

describe('truth question draws', () => {
  it('offers the right answer first, and gives each side and the consultant the right answer, for half the questions', async () => {
    const questions = planQuestions(await scenario({ questions: 400 }));
    expect(questions).toHaveLength(400);
    // Balanced by design: exactly half of the questions each way.
    expect(questions.filter((question) => question.rightOption === 1)).toHaveLength(200);
    expect(questions.filter((question) => question.debateRight === 'a')).toHaveLength(200);
    expect(questions.filter((question) => question.consultant === 'a')).toHaveLength(200);
    expect(questions.filter((question) => question.consultantRight)).toHaveLength(200);
    // ... in an order drawn by the seed, not alternating or in blocks.
    const firsts = questions
      .slice(0, 40)
      .map((question) => question.rightOption)
      .join('');
    expect(firsts).not.toMatch(/^(12)+$|^(21)+$/);
    const other = planQuestions(await scenario({ questions: 400, seed: 6 }));
    expect(other.map((question) => question.rightOption)).not.toEqual(
      questions.map((question) => question.rightOption),
    );
    // An odd count leaves one question over, on either side.
    const odd = planQuestions(await scenario({ questions: 7 }));
    expect([3, 4]).toContain(odd.filter((question) => question.consultantRight).length);
    for (const question of questions) {
      expect([...question.options].sort()).toEqual([question.answer, question.wrong_answer].sort());
      expect(question.options[question.rightOption - 1]).toBe(question.answer);
      // The two debaters argue different answers, and the drawn one argues the right answer.
      expect(arguedOption(question, 'debate', 'a')).not.toBe(arguedOption(question, 'debate', 'b'));
      expect(arguedOption(question, 'debate', question.debateRight)).toBe(question.rightOption);
      expect(arguedOption(question, 'consultancy', question.consultant) === question.rightOption).toBe(
        question.consultantRight,
      );
    }
  });

  it('gives each debater the wrong answer in half of its own consultancies, over any seed', async () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) {
      for (const count of [36, 8, 7]) {
        const questions = planQuestions(await scenario({ questions: count, seed }));
        for (const debater of ['a', 'b'] as const) {
          const mine = questions.filter((question) => question.consultant === debater);
          const wrong = mine.filter((question) => !question.consultantRight).length;
          expect(
            Math.abs(2 * wrong - mine.length),
            `seed ${seed}, ${count} questions, ${debater}`,
          ).toBeLessThanOrEqual(1);
        }
        // ... and the run as a whole stays balanced too.
        const right = questions.filter((question) => question.consultantRight).length;
        expect(Math.abs(2 * right - count), `seed ${seed}, ${count} questions`).toBeLessThanOrEqual(1);
      }
    }
  });

  it("takes a scenario's own questions as given", async () => {
    const questions = planQuestions(
      await scenario({
        questions: [{ question: 'Capital of France?', answer: 'Paris', wrong_answer: 'Lyon' }],
      }),
    );
    expect(questions).toMatchObject([{ id: 'q1', number: 1, answer: 'Paris', wrong_answer: 'Lyon' }]);
  });
});

describe('the simulated truth judge', () => {
  const verdict = truthVerdictSchema(400);
  const schema = answerJsonSchema(verdict);
  const ask = (task: string, seed: number) => {
    const text = truthJudgeAnswer(
      schema,
      [{ role: 'user', content: task }],
      createRng(`seed-${seed}`, 'content'),
    );
    return verdict.parse(JSON.parse(text ?? 'null'));
  };

  it("answers the verdict's schema, leaning as small judges do rather than knowing the answer", () => {
    const runs = 2000;
    const share = (task: string, answer: '1' | '2') => {
      let count = 0;
      for (let seed = 0; seed < runs; seed += 1) if (ask(task, seed).answer === answer) count += 1;
      return count / runs;
    };
    const consultant = (n: number) => `The consultant argues for Answer ${n}; it was assigned its answer.`;
    const debate = (a: number, b: number) =>
      `Debater A argues for Answer ${a} and Debater B for Answer ${b}. One of them`;
    // Alone: the first answer a little more often than the second.
    const first = share('Answer the question yourself.', '1');
    expect(first).toBeGreaterThan(0.55);
    expect(first).toBeLessThan(0.65);
    // Towards the consultant, and more so when its answer is listed first (0.35 + 0.65 x 0.6 or 0.4).
    const consultantFirst = share(consultant(1), '1');
    const consultantSecond = share(consultant(2), '2');
    expect(consultantFirst).toBeGreaterThan(0.69);
    expect(consultantFirst).toBeLessThan(0.79);
    expect(consultantSecond).toBeGreaterThan(0.56);
    expect(consultantSecond).toBeLessThan(0.66);
    // Towards the last speaker a little, and the first answer's pull is as large (0.1 + 0.9 x 0.6 or 0.4).
    const lastFirst = share(debate(2, 1), '1');
    const lastSecond = share(debate(1, 2), '2');
    expect(lastFirst).toBeGreaterThan(0.59);
    expect(lastFirst).toBeLessThan(0.69);
    expect(lastSecond).toBeGreaterThan(0.41);
    expect(lastSecond).toBeLessThan(0.51);
  });

  it('leaves other structured answers to the general simulator', () => {
    const other = { type: 'object', properties: { stronger: { enum: ['a', 'b', 'even'] } } };
    expect(truthJudgeAnswer(other, [{ role: 'user', content: 'x' }], createRng('s', 'content'))).toBeNull();
  });
});
