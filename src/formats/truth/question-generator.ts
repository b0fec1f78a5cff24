/**
 * Questions whose answers are computed, not remembered: multi-step arithmetic, dates and weekdays,
 * unit conversions and small ordering puzzles. Each comes with the wrong answer a careless reasoner
 * gives (a dropped step, an off-by-one), never equal to the right one. The same seed gives the same
 * questions.
 */
import type { QuestionKind, TruthQuestion } from '../../config/truth-question.js';
import { TRUTH_CONTROL_KINDS, TRUTH_QUESTION_KINDS } from '../../config/truth-schema.js';
import type { PassageQuestion } from './passages/passage.js';
import { generatePassage, QUESTIONS_PER_PASSAGE } from './passages/passage-generator.js';
import { type Draw, dateText, draw } from './seeded-draw.js';

export const QUESTION_KINDS = TRUTH_QUESTION_KINDS;
/** The kinds a judge can work out alone: the control set beside passage questions. */
export const CONTROL_KINDS = TRUTH_CONTROL_KINDS;

/** A number as a person writes it: no trailing zeros, at most two decimals. */
export function numberText(value: number): string {
  return String(Math.round(value * 100) / 100);
}

const PEOPLE = ['Ana', 'Ben', 'Chloe', 'Dev', 'Eli', 'Farah', 'Gus', 'Hana', 'Ivo', 'Jun'];
const GOODS = ['apples', 'pencils', 'candles', 'jars', 'tiles', 'books'];

type Made = Omit<TruthQuestion, 'id' | 'kind'>;

function arithmetic(d: Draw): Made {
  if (d.int(0, 1) === 0) {
    const goods = d.pick(GOODS);
    const start = d.int(60, 240);
    const boxes = d.int(2, 9);
    const per = d.int(3, 12);
    const more = d.int(5, 40);
    return {
      question: `A shop has ${start} ${goods}. It sells ${boxes} boxes of ${per} ${goods} each, then receives a delivery of ${more} ${goods}. How many ${goods} does the shop have now?`,
      answer: String(start - boxes * per + more),
      // The delivery forgotten.
      wrong_answer: String(start - boxes * per),
    };
  }
  const name = d.pick(PEOPLE);
  const count = d.int(3, 9);
  const price = d.int(2, 15);
  const bill = d.pick([50, 100, 200].filter((value) => value > count * price));
  return {
    question: `${name} buys ${count} notebooks at ${price} dollars each and pays with a ${bill}-dollar bill. How many dollars of change does ${name} get?`,
    answer: String(bill - count * price),
    // One notebook too few counted.
    wrong_answer: String(bill - (count - 1) * price),
  };
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const DAY_MS = 86_400_000;

function calendar(d: Draw): Made {
  if (d.int(0, 1) === 0) {
    const start = d.int(0, 6);
    const days = d.int(9, 200);
    return {
      question: `Today is a ${WEEKDAYS[start]}. What day of the week will it be ${days} days from today?`,
      answer: WEEKDAYS[(start + days) % 7] as string,
      // Today counted as the first of the days.
      wrong_answer: WEEKDAYS[(start + days - 1) % 7] as string,
    };
  }
  const year = d.int(2019, 2031);
  const startDay = Date.UTC(year, d.int(0, 11), d.int(1, 28));
  const length = d.int(5, 60);
  return {
    question: `A festival starts on ${dateText(new Date(startDay))} and lasts ${length} days, the first day included. On what date is its last day?`,
    answer: dateText(new Date(startDay + (length - 1) * DAY_MS)),
    // The first day not counted.
    wrong_answer: dateText(new Date(startDay + length * DAY_MS)),
  };
}

function units(d: Draw): Made {
  const which = d.int(0, 2);
  if (which === 0) {
    const hours = d.int(1, 9);
    const minutes = d.int(1, 59);
    return {
      question: `How many seconds are there in ${hours} hours and ${minutes} minutes?`,
      answer: String((hours * 60 + minutes) * 60),
      // The minutes left in minutes.
      wrong_answer: String(hours * 3600 + minutes),
    };
  }
  if (which === 1) {
    const grams = d.pick([150, 250, 300, 350, 450, 600, 750, 850]);
    const loaves = d.int(2, 12);
    return {
      question: `A loaf of bread needs ${grams} grams of flour. How many kilograms of flour do ${loaves} loaves need?`,
      answer: numberText((grams * loaves) / 1000),
      // The grams never turned into kilograms.
      wrong_answer: numberText(grams * loaves),
    };
  }
  const speed = d.pick([48, 54, 60, 66, 72, 84, 90, 96, 108]);
  const hours = d.int(1, 4);
  const minutes = d.pick([10, 20, 30, 40, 50]);
  return {
    question: `A train travels at ${speed} kilometres per hour for ${hours} hours and ${minutes} minutes. How many kilometres does it cover?`,
    answer: numberText((speed * (hours * 60 + minutes)) / 60),
    // The minutes read as a decimal fraction of an hour.
    wrong_answer: numberText(speed * (hours + minutes / 100)),
  };
}

function logic(d: Draw): Made {
  if (d.int(0, 1) === 0) {
    const size = d.int(4, 6);
    const people: string[] = [];
    while (people.length < size) {
      const name = d.pick(PEOPLE);
      if (!people.includes(name)) people.push(name);
    }
    // people[0] is the tallest; each clue links two neighbours, in a shuffled order.
    const clues = people.slice(1).map((shorter, at) => {
      const taller = people[at] as string;
      return d.int(0, 1) === 0
        ? `${taller} is taller than ${shorter}.`
        : `${shorter} is shorter than ${taller}.`;
    });
    for (let at = clues.length - 1; at > 0; at -= 1) {
      const other = d.int(0, at);
      [clues[at], clues[other]] = [clues[other] as string, clues[at] as string];
    }
    const rank = d.int(2, size - 1);
    const ordinal = ['', 'tallest', 'second tallest', 'third tallest', 'fourth tallest', 'fifth tallest'];
    return {
      question: `${clues.join(' ')} Who is the ${ordinal[rank]}?`,
      answer: people[rank - 1] as string,
      // One place too far down the line.
      wrong_answer: people[rank] as string,
    };
  }
  const size = d.int(8, 40);
  const left = d.int(2, size - 1);
  const name = d.pick(PEOPLE);
  return {
    question: `${size} people stand in a row. ${name} is number ${left} counting from the left. What is ${name}'s number counting from the right?`,
    answer: String(size - left + 1),
    // The usual fence-post slip.
    wrong_answer: String(size - left),
  };
}

const MAKERS: Record<Exclude<QuestionKind, 'passage'>, (d: Draw) => Made> = {
  arithmetic,
  calendar,
  units,
  logic,
};

/**
 * `count` questions for `seed`, the kinds taken in turn (from a seeded starting point), each
 * question drawn from its own seed so adding one does not change the others. `passage` questions
 * come from generated passages, QUESTIONS_PER_PASSAGE to a passage in the order the passage asks
 * them; each carries its passage's text and id.
 */
export function generateQuestions(
  seed: number,
  count: number,
  kinds: readonly QuestionKind[] = CONTROL_KINDS,
): TruthQuestion[] {
  const offset = draw(`${seed}:truth-kinds`).int(0, kinds.length - 1);
  let passageQuestions = 0;
  return Array.from({ length: count }, (_, at) => {
    const kind = kinds[(offset + at) % kinds.length] as QuestionKind;
    if (kind === 'passage') {
      const number = Math.floor(passageQuestions / QUESTIONS_PER_PASSAGE) + 1;
      const passage = generatePassage(seed, number);
      const asked = passage.questions[passageQuestions % QUESTIONS_PER_PASSAGE] as PassageQuestion;
      passageQuestions += 1;
      return { id: `q${at + 1}`, kind, ...asked, passage: passage.text, passage_id: `p${number}` };
    }
    const made = MAKERS[kind](draw(`${seed}:truth-question-${at + 1}`));
    return { id: `q${at + 1}`, kind, ...made };
  });
}
