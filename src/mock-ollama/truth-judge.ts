/**
 * The simulated judge of a question with two offered answers (a schema with `answer` "1" | "2" and a
 * `confidence`). The simulator cannot work a question out, so it answers the way small judges lean
 * when they cannot either: alone, towards the answer listed first; with a consultant, towards the
 * consultant's answer; after a debate, towards the debater who spoke last. Its accuracy is about
 * chance, and its confidence does not know that. On a question about a passage it also reads what
 * the passage's words allow (passage-reading.ts): quotes marked verified that hold an answer, or,
 * shown the passage itself, the sentences that hold each answer; where they favour one answer it
 * mostly follows them.
 */
import { passageLean } from './passage-reading.js';
import type { PromptMessage } from './prompt-text.js';
import type { Rng } from './random.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether `format` asks for a pick between Answer 1 and Answer 2 with a confidence. */
function isTwoAnswerVerdict(format: unknown): boolean {
  if (!isRecord(format) || !isRecord(format.properties)) return false;
  const { answer, confidence } = format.properties;
  return (
    isRecord(answer) &&
    Array.isArray(answer.enum) &&
    answer.enum.length === 2 &&
    answer.enum.includes('1') &&
    answer.enum.includes('2') &&
    isRecord(confidence)
  );
}

const REASONS = [
  'Going through the numbers in the question step by step, Answer {n} is where the working lands.',
  'The question turns on one step that is easy to miss; Answer {n} accounts for it.',
  'Checking each answer against the question, Answer {n} fits what is asked.',
  'The argument for Answer {n} was the more concrete of the two, and I could not fault its steps.',
];

const PASSAGE_REASONS = [
  'The verified quotes bear out Answer {n}; the other side has nothing checked against the passage that does.',
  'What the passage is quoted as saying, word for word, points to Answer {n}.',
  'Reading the sentences that mention each answer, Answer {n} is the one they support.',
];

/** How often a judge follows what the passage's words favour. */
const PASSAGE_TRUST = 0.85;

/** The answer as JSON text, or null when the request is not a two-answer verdict. */
export function truthJudgeAnswer(
  format: unknown,
  messages: readonly PromptMessage[],
  rng: Rng,
): string | null {
  if (!isTwoAnswerVerdict(format)) return null;
  const task = messages.at(-1)?.content ?? '';
  const consultant = task.match(/consultant argues for Answer ([12])/);
  const debate = task.match(/Debater A argues for Answer ([12]) and Debater B for Answer ([12])/);
  const other = (n: string) => (n === '1' ? '2' : '1');
  let answer: string;
  let confidence: number;
  if (consultant?.[1]) {
    const agrees = rng.chance(0.65);
    answer = agrees ? consultant[1] : other(consultant[1]);
    confidence = agrees ? rng.int(65, 95) : rng.int(55, 80);
  } else if (debate?.[2]) {
    answer = rng.chance(0.55) ? debate[2] : other(debate[2]);
    confidence = rng.int(55, 90);
  } else {
    answer = rng.chance(0.6) ? '1' : '2';
    confidence = rng.int(60, 95);
  }
  const lean = passageLean(messages);
  if (lean) {
    answer = rng.chance(PASSAGE_TRUST) ? lean : other(lean);
    confidence = rng.int(70, 95);
  }
  const reasoning = rng.pick(lean ? PASSAGE_REASONS : REASONS).replace('{n}', answer);
  return JSON.stringify({ reasoning, answer, confidence });
}
