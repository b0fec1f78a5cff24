/**
 * Every generated passage question's stored answer, worked out again from the passage's text and the
 * question alone by a reader written here, sharing nothing with the generator: its own date
 * arithmetic (day numbers, not the Date class), its own reading of each kind of document.
 */
import { describe, expect, it } from 'vitest';
import { DOCUMENTS, generatePassage } from '../../src/formats/truth/passages/passage-generator.js';
import { generateQuestions } from '../../src/formats/truth/question-generator.js';

const SEEDS = 1500;
const MONTH_NAMES =
  'January February March April May June July August September October November December'.split(' ');
const DATE = String.raw`([A-Z][a-z]+ \d{1,2}, \d{4})`;

/** A civil date as a day number (days since 1 March of year 0, proleptic Gregorian). */
function dayNumber(text: string): number {
  const m = text.match(/^([A-Z][a-z]+) (\d{1,2}), (\d{4})$/);
  if (!m) throw new Error(`not a date: ${text}`);
  let year = Number(m[3]);
  let month = MONTH_NAMES.indexOf(m[1] as string) + 1;
  const day = Number(m[2]);
  if (month < 1) throw new Error(`no such month: ${text}`);
  // Count from March so that the leap day falls at the end of the counted year.
  if (month <= 2) {
    year -= 1;
    month += 12;
  }
  return (
    365 * year +
    Math.floor(year / 4) -
    Math.floor(year / 100) +
    Math.floor(year / 400) +
    Math.floor((153 * (month - 3) + 2) / 5) +
    day
  );
}

/** The date of a day number, as the passage writes dates. */
function dateOf(number: number): string {
  for (let year = 2015; year <= 2040; year += 1) {
    for (let month = 0; month < 12; month += 1) {
      const first = dayNumber(`${MONTH_NAMES[month]} 1, ${year}`);
      const next =
        month === 11
          ? dayNumber(`January 1, ${year + 1}`)
          : dayNumber(`${MONTH_NAMES[month + 1]} 1, ${year}`);
      if (number >= first && number < next) return `${MONTH_NAMES[month]} ${number - first + 1}, ${year}`;
    }
  }
  throw new Error(`day ${number} out of range`);
}

const need = (m: RegExpMatchArray | null | undefined, what: string): RegExpMatchArray => {
  if (!m) throw new Error(`could not find ${what}`);
  return m;
};

function readReport(text: string, question: string): string {
  const figures = new Map<string, { revenue: number; costs: number }>();
  for (const m of text.matchAll(
    /In the (\w+) quarter, revenue came to \$(\d+) thousand and costs to \$(\d+) thousand\./g,
  )) {
    figures.set(m[1] as string, { revenue: Number(m[2]), costs: Number(m[3]) });
  }
  for (const m of text.matchAll(
    /Costs for the (\w+) quarter were \$(\d+) thousand, against revenue of \$(\d+) thousand\./g,
  )) {
    figures.set(m[1] as string, { revenue: Number(m[3]), costs: Number(m[2]) });
  }
  const of = (quarter: string) => {
    const found = figures.get(quarter);
    if (!found) throw new Error(`no figures for the ${quarter} quarter`);
    return found;
  };
  let m = question.match(/combined revenue in the (\w+) and (\w+) quarters/);
  if (m) return String(of(m[1] as string).revenue + of(m[2] as string).revenue);
  m = question.match(/profit \(revenue minus costs\) in the (\w+) quarter/);
  if (m) return String(of(m[1] as string).revenue - of(m[1] as string).costs);
  if (/largest profit/.test(question)) {
    const best = [...figures.entries()].sort(
      (x, y) => y[1].revenue - y[1].costs - (x[1].revenue - x[1].costs),
    );
    expect(figures.size).toBe(4);
    return `the ${best[0]?.[0]} quarter`;
  }
  m = need(question.match(/costs in the (\w+) and (\w+) quarters/), 'a costs question');
  return String(of(m[1] as string).costs + of(m[2] as string).costs);
}

function readMinutes(text: string, question: string): string {
  const paras = text.split('\n\n');
  const item = need(
    question.match(/^On what date did the .+? approve (.+)\?$/) ??
      question.match(/^Who proposed (.+) to the [^?]+\?$/) ??
      question.match(/^Who chaired the meeting at which the .+? approved (.+)\?$/) ??
      question.match(/deferred (.+) and the meeting that approved it\?$/),
    'the item',
  )[1] as string;
  const approvedIn = paras.findIndex((p) => p.includes(`approved ${item},`));
  expect(approvedIn).toBeGreaterThan(0);
  // The date of the meeting a paragraph belongs to: the last meeting date written at or before it.
  const meetingOf = (at: number): string => {
    for (let back = at; back >= 0; back -= 1) {
      const dates = [...(paras[back] as string).matchAll(new RegExp(`met (?:again )?on ${DATE}`, 'g'))];
      if (dates.length > 0) return dates.at(-1)?.[1] as string;
    }
    throw new Error('no meeting date');
  };
  if (question.startsWith('On what date')) return meetingOf(approvedIn);
  if (question.startsWith('Who proposed')) {
    return need(
      text.match(new RegExp(`seconded a motion from ([A-Z]\\w+ [A-Z]\\w+) on ${item}\\.`)),
      'the proposer',
    )[1] as string;
  }
  if (question.startsWith('Who chaired')) {
    for (let back = approvedIn; back >= 0; back -= 1) {
      const p = paras[back] as string;
      const took =
        p.match(/([A-Z]\w+ [A-Z]\w+) took the chair/) ?? p.match(/with ([A-Z]\w+ [A-Z]\w+) in the chair/);
      if (took) return took[1] as string;
    }
    throw new Error('no chair');
  }
  const deferredIn = paras.findIndex((p) => p.includes(`on ${item}.`) && p.includes('deferred'));
  expect(deferredIn).toBeGreaterThan(0);
  return String(dayNumber(meetingOf(approvedIn)) - dayNumber(meetingOf(deferredIn)));
}

function readTravel(text: string, question: string): string {
  const first = need(text.match(new RegExp(`I arrived in (\\w+) on ${DATE}`)), 'the first arrival');
  const stays: Array<{ town: string; arrive: number; nights: number }> = [];
  let arrive = dayNumber(first[2] as string);
  let town = first[1] as string;
  for (const m of text.matchAll(/After (\d+) nights in (\w+) I took the [\w ]+? to (\w+)/g)) {
    expect(m[2]).toBe(town);
    stays.push({ town, arrive, nights: Number(m[1]) });
    arrive += Number(m[1]);
    town = m[3] as string;
  }
  const last = need(text.match(/I stayed (\d+) nights in (\w+) before flying home/), 'the last stay');
  expect(last[2]).toBe(town);
  stays.push({ town, arrive, nights: Number(last[1]) });
  const stayIn = (name: string) => {
    const found = stays.find((s) => s.town === name);
    if (!found) throw new Error(`no stay in ${name}`);
    return found;
  };
  let m = question.match(/arrive in (\w+)\?/);
  if (m) return dateOf(stayIn(m[1] as string).arrive);
  m = question.match(/spend in (\w+) and (\w+) together/);
  if (m) return String(stayIn(m[1] as string).nights + stayIn(m[2] as string).nights);
  m = question.match(new RegExp(`the night of ${DATE}\\?`));
  if (m) {
    const night = dayNumber(m[1] as string);
    const found = stays.find((s) => night >= s.arrive && night < s.arrive + s.nights);
    if (!found) throw new Error('no stay that night');
    return found.town;
  }
  expect(question).toMatch(/whole trip last/);
  return String(stays.reduce((sum, s) => sum + s.nights, 0));
}

function readStory(text: string, question: string): string {
  const father = need(text.match(/^(\w+) \w+ kept /), 'the father')[1] as string;
  const daughter = need(text.match(/Their daughter (\w+), then (\d+),/), 'the daughter');
  const aunt = need(text.match(new RegExp(`${father}'s sister, (\\w+),`)), 'the aunt')[1] as string;
  const uncle = need(
    text.match(new RegExp(`(\\w+), the younger of ${father}'s two siblings`)),
    'the uncle',
  )[1] as string;
  expect(question).toContain(question.includes('Why did') ? aunt : (daughter[1] as string));
  if (/aunt\?$/.test(question)) return aunt;
  if (/uncle do for a living/.test(question)) {
    const para = text.split('\n\n').find((p) => p.startsWith(uncle)) as string;
    return need(para.match(/earned his living as a (.+?)\./), "the uncle's trade")[1] as string;
  }
  if (question.startsWith('Why did')) {
    return need(text.match(/She was \d+ that spring when she came back (.+?)\./), 'the reason')[1] as string;
  }
  const uncleAge = need(text.match(/He was (\d+), lived/), "the uncle's age")[1];
  return String(Number(uncleAge) - Number(daughter[2]));
}

function read(document: string, text: string, question: string): string {
  if (document === 'quarterly report') return readReport(text, question);
  if (document === 'meeting minutes') return readMinutes(text, question);
  if (document === 'travel log') return readTravel(text, question);
  return readStory(text, question);
}

describe('generated passages', () => {
  it('answer every question as a careful reader of the text works it out, and the wrong answer differs', () => {
    const documents = new Map<string, number>();
    for (let seed = 1; seed <= SEEDS; seed += 1) {
      for (let number = 1; number <= DOCUMENTS.length; number += 1) {
        const passage = generatePassage(seed, number);
        documents.set(passage.document, (documents.get(passage.document) ?? 0) + 1);
        expect(passage.questions.length).toBeGreaterThan(0);
        expect(passage.questions.length).toBeLessThanOrEqual(5);
        for (const item of passage.questions) {
          const worked = read(passage.document, passage.text, item.question);
          if (worked !== item.answer || item.wrong_answer === item.answer) {
            throw new Error(
              `seed ${seed} passage ${number}: ${item.question} read ${worked}, stored ${item.answer} (wrong ${item.wrong_answer})\n${passage.text}`,
            );
          }
        }
      }
    }
    // Every kind of document is made, about equally often.
    expect([...documents.keys()].sort()).toEqual([
      'meeting minutes',
      'quarterly report',
      'story',
      'travel log',
    ]);
    for (const count of documents.values()) expect(count).toBe(SEEDS);
  });

  it('are 300 to 900 words long', () => {
    const lengths: number[] = [];
    for (let seed = 1; seed <= 300; seed += 1) {
      for (let number = 1; number <= DOCUMENTS.length; number += 1) {
        lengths.push(generatePassage(seed, number).text.split(/\s+/).length);
      }
    }
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(300);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(900);
  });

  it('put every wrong answer where a skimming reader finds it: written in the passage, or computed from figures in it', () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const passage = generatePassage(seed, 1 + (seed % DOCUMENTS.length));
      for (const item of passage.questions) {
        if (!/^-?\d+$/.test(item.wrong_answer) && !item.wrong_answer.startsWith('the ')) {
          expect(passage.text).toContain(item.wrong_answer);
        }
      }
    }
  });
});

describe('passage questions among generated questions', () => {
  it('come four to a passage, each carrying its passage and its id, the same for the same seed', () => {
    const questions = generateQuestions(9, 12, ['passage']);
    expect(questions.map((q) => q.passage_id)).toEqual([
      'p1',
      'p1',
      'p1',
      'p1',
      'p2',
      'p2',
      'p2',
      'p2',
      'p3',
      'p3',
      'p3',
      'p3',
    ]);
    expect(new Set(questions.slice(0, 4).map((q) => q.passage)).size).toBe(1);
    expect(questions[0]?.passage).not.toBe(questions[4]?.passage);
    expect(new Set(questions.slice(0, 4).map((q) => q.question)).size).toBe(4);
    expect(generateQuestions(9, 12, ['passage'])).toEqual(questions);
  });

  it('mix with the control kinds, which keep their own questions', () => {
    const mixed = generateQuestions(4, 10, ['passage', 'arithmetic']);
    expect(mixed.filter((q) => q.kind === 'passage').length).toBe(5);
    expect(mixed.filter((q) => q.kind === 'arithmetic').every((q) => q.passage === undefined)).toBe(true);
  });
});
