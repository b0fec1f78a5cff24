/**
 * Every generated question's stored answer, worked out again from the question's text alone by a
 * solver written here, sharing nothing with the generator (its own calendar, its own parsing).
 */
import { describe, expect, it } from 'vitest';
import { generateQuestions } from '../../src/formats/truth/question-generator.js';

const SEEDS = 3000;
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTH_NAMES =
  'January February March April May June July August September October November December'.split(' ');
const ORDINALS: Record<string, number> = {
  tallest: 1,
  'second tallest': 2,
  'third tallest': 3,
  'fourth tallest': 4,
  'fifth tallest': 5,
};

const leap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const monthLength = (year: number, month: number) =>
  [31, leap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month] as number;

/** Steps a date forward one day at a time, by the Gregorian rules. */
function addDays(year: number, month: number, day: number, count: number): string {
  let [y, m, d] = [year, month, day];
  for (let step = 0; step < count; step += 1) {
    d += 1;
    if (d > monthLength(y, m)) {
      d = 1;
      m += 1;
      if (m === 12) {
        m = 0;
        y += 1;
      }
    }
  }
  return `${MONTH_NAMES[m]} ${d}, ${y}`;
}

/** Orders people from the tallest by the clues, checking they fix one order. */
function tallestFirst(clues: Array<[string, string]>): string[] {
  const names = new Set(clues.flat());
  const order: string[] = [];
  const left = new Set(names);
  while (left.size > 0) {
    const top = [...left].filter(
      (name) => !clues.some(([taller, shorter]) => shorter === name && left.has(taller)),
    );
    if (top.length !== 1) throw new Error(`the clues do not fix one order: ${JSON.stringify(clues)}`);
    order.push(top[0] as string);
    left.delete(top[0] as string);
  }
  return order;
}

type Solved = { kind: string; value: string | number };

function solve(text: string): Solved {
  let m = text.match(
    /^A shop has (\d+) (\w+)\. It sells (\d+) boxes of (\d+) \2 each, then receives a delivery of (\d+) \2\./,
  );
  if (m) return { kind: 'shop', value: Number(m[1]) - Number(m[3]) * Number(m[4]) + Number(m[5]) };
  m = text.match(/buys (\d+) notebooks at (\d+) dollars each and pays with a (\d+)-dollar bill/);
  if (m) return { kind: 'change', value: Number(m[3]) - Number(m[1]) * Number(m[2]) };
  m = text.match(/^Today is a (\w+)\. What day of the week will it be (\d+) days from today\?$/);
  if (m) return { kind: 'weekday', value: DAYS[(DAYS.indexOf(m[1] as string) + Number(m[2])) % 7] as string };
  m = text.match(/starts on (\w+) (\d+), (\d+) and lasts (\d+) days, the first day included/);
  if (m) {
    const month = MONTH_NAMES.indexOf(m[1] as string);
    return { kind: 'festival', value: addDays(Number(m[3]), month, Number(m[2]), Number(m[4]) - 1) };
  }
  m = text.match(/^How many seconds are there in (\d+) hours and (\d+) minutes\?$/);
  if (m) return { kind: 'seconds', value: Number(m[1]) * 3600 + Number(m[2]) * 60 };
  m = text.match(/needs (\d+) grams of flour\. How many kilograms of flour do (\d+) loaves need\?$/);
  if (m) return { kind: 'flour', value: (Number(m[1]) * Number(m[2])) / 1000 };
  m = text.match(/travels at (\d+) kilometres per hour for (\d+) hours and (\d+) minutes/);
  if (m) return { kind: 'train', value: Number(m[1]) * Number(m[2]) + (Number(m[1]) * Number(m[3])) / 60 };
  m = text.match(/^(\d+) people stand in a row\. (\w+) is number (\d+) counting from the left/);
  if (m) return { kind: 'row', value: Number(m[1]) - Number(m[3]) + 1 };
  m = text.match(/Who is the ([a-z ]+)\?$/);
  if (m && ORDINALS[m[1] as string]) {
    const clues: Array<[string, string]> = [];
    for (const clue of text.matchAll(/(\w+) is (taller|shorter) than (\w+)\./g)) {
      const [, first, word, second] = clue as unknown as [string, string, string, string];
      clues.push(word === 'taller' ? [first, second] : [second, first]);
    }
    return { kind: 'order', value: tallestFirst(clues)[(ORDINALS[m[1] as string] as number) - 1] as string };
  }
  throw new Error(`no solver reads: ${text}`);
}

/** An answer as text compared with the solver's value: numbers by value, words exactly. */
const same = (text: string, value: string | number) =>
  typeof value === 'number' ? Math.abs(Number(text) - value) < 1e-9 && text.trim() !== '' : text === value;

describe('generated truth questions', () => {
  it(`hold the right answer and a different wrong one, over ${SEEDS} seeds`, () => {
    const kinds = new Map<string, number>();
    let checked = 0;
    for (let seed = 0; seed < SEEDS; seed += 1) {
      for (const question of generateQuestions(seed - 1500, 4)) {
        const solved = solve(question.question);
        kinds.set(solved.kind, (kinds.get(solved.kind) ?? 0) + 1);
        if (!same(question.answer, solved.value)) {
          throw new Error(
            `seed ${seed - 1500}: "${question.question}" stores ${question.answer}, the solver finds ${solved.value}`,
          );
        }
        expect(same(question.wrong_answer, solved.value)).toBe(false);
        expect(question.wrong_answer).not.toBe(question.answer);
        checked += 1;
      }
    }
    expect(checked).toBe(SEEDS * 4);
    // Every template was drawn often enough to be tested, not just one per kind.
    expect([...kinds.keys()].sort()).toEqual(
      ['change', 'festival', 'flour', 'order', 'row', 'seconds', 'shop', 'train', 'weekday'].sort(),
    );
    for (const count of kinds.values()) expect(count).toBeGreaterThan(300);
  });

  it('gives the same questions for the same seed and other questions for another', () => {
    expect(generateQuestions(7, 6)).toEqual(generateQuestions(7, 6));
    expect(generateQuestions(7, 6)).not.toEqual(generateQuestions(8, 6));
    // A longer set starts with the shorter one: a question does not depend on how many follow.
    expect(generateQuestions(7, 9).slice(0, 6)).toEqual(generateQuestions(7, 6));
  });

  it('keeps to the kinds asked for', () => {
    const kinds = new Set(generateQuestions(3, 12, ['calendar', 'logic']).map((question) => question.kind));
    expect([...kinds].sort()).toEqual(['calendar', 'logic']);
  });
});
