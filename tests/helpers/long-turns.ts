/**
 * Statements of the length real 7-8B debaters write when asked for several hundred words (350 to
 * 650), as scripted answers for the mock server: each one different, in sentences, so a debate of
 * several rounds outgrows an 8192-token window as real ones do.
 */
import type { ScriptRule } from '../../src/mock-ollama/index.js';

const SUBJECTS = [
  'Commuting time',
  'Mentoring of junior staff',
  'The evidence from large firms',
  'Collaboration across teams',
  'Work-life balance',
  'Productivity per hour',
  'The cost of office space',
  'Hiring from a wider pool',
  'Security of company data',
  'Onboarding of new people',
];
const CLAIMS = [
  'matters more than the other side admits, because it shapes every working day',
  'was measured in two studies of several thousand workers over three years',
  'cuts both ways, yet the balance clearly favours my side of this motion',
  'is where the opposing case is weakest, as its own examples show',
  'explains why teams that changed their way of working did not change back',
  'costs a mid-sized firm more each year than most managers realise',
  'depends on habits that a company can build deliberately and cheaply',
  'is too often assumed rather than shown, and the numbers tell another story',
];

/** About `words` words of debate prose, its sentences drawn from `seed`. */
export function longStatement(words: number, seed: number): string {
  const sentences: string[] = [];
  let count = 0;
  for (let at = 0; count < words; at += 1) {
    const subject = SUBJECTS[(seed * 7 + at * 3) % SUBJECTS.length] as string;
    const claim = CLAIMS[(seed * 5 + at) % CLAIMS.length] as string;
    const sentence = `${subject} ${claim}, and in round ${seed} point ${at + 1} I hold to it.`;
    sentences.push(sentence);
    count += sentence.split(/\s+/).length;
  }
  return sentences.join(' ');
}

/** Words of the `turn`-th long statement: from 350 to 650, varying turn by turn. */
export function longTurnWords(turn: number): number {
  return 350 + ((turn * 137) % 301);
}

/** One scripted answer per turn matching `regex`, each a different long statement, used once each. */
export function longTurnRules(regex: string, turns: number, from = 0): ScriptRule[] {
  return Array.from({ length: turns }, (_, turn) => ({
    match: { regex },
    times: 1,
    reply: longStatement(longTurnWords(from + turn), from + turn + 1),
  }));
}
