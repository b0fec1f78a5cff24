/**
 * The simulated judge of a question with two offered answers (a schema with `answer` "1" | "2" and a
 * `confidence`). The simulator cannot work a question out, so it answers the way small judges lean
 * when they cannot either: now and then it goes with the consultant's answer, or with the debater
 * who spoke last, and when it is unsure it picks the answer listed first a little more often than
 * the other (the position bias small models show, which is why the same question read with the
 * answers the other way round is sometimes decided the other way). Its accuracy is about chance,
 * and its confidence does not know that. On a question about a passage it also reads what the
 * passage's words allow (passage-reading.ts): quotes marked verified that hold an answer, or, shown
 * the passage itself, the sentences that hold each answer; where they favour one answer it mostly
 * follows them, and otherwise falls back on the same unsure pick.
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

/** How often a judge settles on what the passage's words favour before any other lean. */
const PASSAGE_TRUST = 0.75;
/** When unsure, how often the judge picks the answer listed first. */
export const FIRST_ANSWER_PREFERENCE = 0.6;
/** How often a judge settles on the consultant's answer, and on the last debater's, before an unsure pick. */
const CONSULTANT_PULL = 0.35;
const LAST_SPEAKER_PULL = 0.1;

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
  const unsure = () => (rng.chance(FIRST_ANSWER_PREFERENCE) ? '1' : '2');
  const lean = passageLean(messages);
  // The pull the judge follows first, if it follows one: the passage's evidence, the consultant, the last speaker.
  const pull = lean
    ? { answer: lean, chance: PASSAGE_TRUST }
    : consultant?.[1]
      ? { answer: consultant[1], chance: CONSULTANT_PULL }
      : debate?.[2]
        ? { answer: debate[2], chance: LAST_SPEAKER_PULL }
        : null;
  const settled = pull !== null && rng.chance(pull.chance);
  const answer = settled && pull ? pull.answer : unsure();
  const confidence = lean ? rng.int(70, 95) : settled ? rng.int(65, 95) : rng.int(55, 90);
  const reasoning = rng.pick(lean && settled ? PASSAGE_REASONS : REASONS).replace('{n}', answer);
  return JSON.stringify({ reasoning, answer, confidence });
}
