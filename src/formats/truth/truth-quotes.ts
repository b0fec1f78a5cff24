/**
 * Every quote of a passage that a debater or consultant made, checked against the passage, and what
 * the quotes came to: per debater model, how many verified, were one word off or were not in the
 * passage; and, in the debates, how often the judge chose the side with more verified quotes.
 */
import { checkQuotes, type QuoteVerdict } from './quote-verification.js';
import {
  arguedOption,
  conditionRecords,
  JUDGE_QUESTION,
  recordedQuestions,
  type TruthState,
} from './truth-plan.js';

export interface QuoteRecord {
  question: number;
  condition: 'debate' | 'consultancy';
  speaker: string;
  model: string;
  side: string;
  text: string;
  verdict: QuoteVerdict;
  /** For a near miss: the passage's words it came closest to. */
  closest?: string;
}

export interface QuoteTally {
  model: string;
  quotes: number;
  verified: number;
  nearMiss: number;
  unverified: number;
}

export interface QuotesFollowed {
  /** Readings of debates judged where one side made more verified quotes than the other. */
  of: number;
  /** Of those, the readings whose verdict chose that side's answer. */
  followed: number;
}

/**
 * A statement's quotes, checked once: the transcript is written again after each question, and
 * checking every quote of the run each time (near misses are a word-by-word search) grew with the
 * square of the run's length. Events are never changed once recorded, so the check is kept per event.
 */
const checkedQuotes = new WeakMap<object, ReturnType<typeof checkQuotes>>();
function quotesOf(statement: { text: string }, passage: string): ReturnType<typeof checkQuotes> {
  const known = checkedQuotes.get(statement);
  if (known) return known;
  const quotes = checkQuotes(statement.text, passage);
  checkedQuotes.set(statement, quotes);
  return quotes;
}

export function recordedQuotes(state: TruthState): QuoteRecord[] {
  const quotes: QuoteRecord[] = [];
  for (const question of recordedQuestions(state)) {
    if (!question.passage) continue;
    for (const record of conditionRecords(state, question.number)) {
      if (record.condition !== 'debate' && record.condition !== 'consultancy') continue;
      for (const statement of record.statements) {
        if (statement.phase === JUDGE_QUESTION || statement.degraded) continue;
        for (const quote of quotesOf(statement, question.passage)) {
          quotes.push({
            question: question.number,
            condition: record.condition,
            speaker: statement.speaker,
            model: statement.model,
            side: statement.side,
            ...quote,
          });
        }
      }
    }
  }
  return quotes;
}

export function quoteTallies(quotes: readonly QuoteRecord[]): QuoteTally[] {
  const byModel = new Map<string, QuoteTally>();
  for (const quote of quotes) {
    const tally = byModel.get(quote.model) ?? {
      model: quote.model,
      quotes: 0,
      verified: 0,
      nearMiss: 0,
      unverified: 0,
    };
    tally.quotes += 1;
    if (quote.verdict === 'verified') tally.verified += 1;
    else if (quote.verdict === 'near-miss') tally.nearMiss += 1;
    else tally.unverified += 1;
    byModel.set(quote.model, tally);
  }
  return [...byModel.values()].sort((x, y) => x.model.localeCompare(y.model));
}

/** In the debates: in each reading, whether the judge chose the answer of the side with more verified quotes. */
export function quotesFollowed(state: TruthState, quotes: readonly QuoteRecord[]): QuotesFollowed {
  const result: QuotesFollowed = { of: 0, followed: 0 };
  for (const question of recordedQuestions(state)) {
    if (!question.passage) continue;
    const record = conditionRecords(state, question.number).find((item) => item.condition === 'debate');
    const verified = (side: string) =>
      quotes.filter(
        (quote) =>
          quote.question === question.number &&
          quote.condition === 'debate' &&
          quote.side === side &&
          quote.verdict === 'verified',
      ).length;
    const [a, b] = [verified('a'), verified('b')];
    if (a === b) continue;
    const stronger = a > b ? 'a' : 'b';
    for (const { reading, verdict } of record?.readings ?? []) {
      const picked = Number(verdict?.result?.answer);
      if (picked !== 1 && picked !== 2) continue;
      result.of += 1;
      if (picked === arguedOption(question, 'debate', stronger, reading)) result.followed += 1;
    }
  }
  return result;
}
