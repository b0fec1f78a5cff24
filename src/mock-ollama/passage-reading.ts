/**
 * How the simulator reads a passage: without understanding it. For an answer it looks for the stretch
 * of one to three sentences that holds the answer's words and shares the most words with the question,
 * as a model skimming for support does. Debaters quote that stretch (copied with the usual small
 * mistakes at the server's rate); a debater whose answer is written nowhere in the passage quotes the
 * sentence most like the question, and now and then puts its answer into it. A judge that cannot see
 * the passage weighs only the quotes marked verified that hold an answer's words; an expert judge runs
 * the same search on the passage itself. Nothing here knows which answer is right: whatever accuracy
 * comes out follows from what the passage's words allow.
 */
import type { PromptMessage } from './prompt-text.js';
import { miscopy } from './quote-copy.js';
import type { Rng } from './random.js';

/** The share of debaters without support in the passage who write their answer into a quote. */
export const FABRICATION_RATE = 0.5;

const STOP = new Set(
  'what which when where whose with that this from into than then them they their there were have been does did how many much while about after before over under being other more most some such only also just very each every'.split(
    ' ',
  ),
);

/** Words compared without case, marks or apostrophes. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['\u2018\u2019`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '');
}

function holds(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0) return false;
  for (let start = 0; start + needle.length <= haystack.length; start += 1) {
    let at = 0;
    while (at < needle.length && haystack[start + at] === needle[at]) at += 1;
    if (at === needle.length) return true;
  }
  return false;
}

/** A word's stem as a skimming reader matches it: its first five letters ("approve", "approved"). */
const stem = (word: string) => word.slice(0, 5);

/** The stems of the question's own words that say what it is about. */
function termsOf(question: string): Set<string> {
  return new Set(
    words(question)
      .filter((word) => word.length >= 4 && !STOP.has(word))
      .map(stem),
  );
}

function overlap(text: string, terms: Set<string>): number {
  return new Set(
    words(text)
      .map(stem)
      .filter((word) => terms.has(word)),
  ).size;
}

function sentencesOf(passage: string): string[] {
  return passage
    .split(/\n\s*\n/)
    .flatMap((paragraph) =>
      paragraph
        .replace(/\s+/g, ' ')
        .trim()
        .split(/(?<=[.!?])\s+(?=[A-Z$"'])/),
    )
    .filter((sentence) => sentence !== '');
}

export interface Support {
  /** The sentences around the answer's words, as a debater quotes them. */
  text: string;
  /** How close the question's words stand to the answer's: each word within a few words counts, the nearer the more. */
  score: number;
}

/** How far from a place a question word may stand and still count. */
const REACH = 15;

/**
 * Where `answer`'s words stand in the passage closest to the question's words, with the sentence or
 * two around them; null when the passage does not hold them.
 */
export function supportFor(passage: string, question: string, answer: string): Support | null {
  const sentences = sentencesOf(passage);
  const terms = termsOf(question);
  const needle = words(answer);
  if (needle.length === 0) return null;
  // Every word of the passage, with the sentence it belongs to.
  const all: Array<{ word: string; sentence: number }> = [];
  sentences.forEach((sentence, at) => {
    for (const word of words(sentence)) all.push({ word, sentence: at });
  });
  const answerWords = new Set(needle.map(stem));
  let best: Support | null = null;
  for (let start = 0; start + needle.length <= all.length; start += 1) {
    let at = 0;
    while (at < needle.length && all[start + at]?.word === needle[at]) at += 1;
    if (at < needle.length) continue;
    const end = start + needle.length - 1;
    let score = 0;
    for (const term of terms) {
      if (answerWords.has(term)) continue;
      let nearest = REACH;
      for (let k = Math.max(0, start - REACH); k <= Math.min(all.length - 1, end + REACH); k += 1) {
        if (stem(all[k]?.word ?? '') !== term) continue;
        nearest = Math.min(nearest, k < start ? start - k : k - end);
      }
      score += (REACH - nearest) / REACH;
    }
    if (!best || score > best.score) {
      const first = all[start]?.sentence ?? 0;
      const last = all[end]?.sentence ?? first;
      // The answer's sentence, and the one before it when the question's words stand there.
      const from =
        first > 0 && overlap(sentences[first - 1] ?? '', terms) > overlap(sentences[first] ?? '', terms)
          ? first - 1
          : first;
      best = { text: sentences.slice(from, last + 1).join(' '), score };
    }
  }
  return best;
}

/** The passage's sentence most like the question. */
function mostLike(passage: string, question: string): string {
  const terms = termsOf(question);
  let best = '';
  let bestScore = -1;
  for (const sentence of sentencesOf(passage)) {
    const score = overlap(sentence, terms);
    if (score > bestScore) [best, bestScore] = [sentence, score];
  }
  return best;
}

/** The question, the two answers and the passage (when the prompt holds one) of a truth prompt. */
export interface TruthPrompt {
  question: string;
  options: [string, string];
  passage: string | null;
}

export function readTruthPrompt(messages: readonly PromptMessage[]): TruthPrompt | null {
  const text = messages.map((message) => message.content).join('\n');
  const question = text.match(/^Question: (.+)$/m)?.[1];
  // A judge deciding reads the answers numbered; a debater, in no particular order.
  const listed = text.match(/^The two answers, in no particular order:\n- (.+)\n- (.+)$/m);
  const one = text.match(/^Answer 1: (.+)$/m)?.[1] ?? listed?.[1];
  const two = text.match(/^Answer 2: (.+)$/m)?.[1] ?? listed?.[2];
  if (!question || !one || !two) return null;
  // The passage runs from its heading to the end of the message that holds it.
  const holder = messages.find((message) => /^## Passage\b.*$/m.test(message.content));
  const passage = holder ? (holder.content.split(/^## Passage\b.*$/m)[1] ?? '').trim() : null;
  return { question, options: [one, two], passage: passage || null };
}

/** The sentence with the answer put in place of a date, a figure or a name of the same shape; else added. */
function withAnswerIn(sentence: string, answer: string): string {
  const shape = /^[A-Z][a-z]+ \d{1,2}, \d{4}$/.test(answer)
    ? /[A-Z][a-z]+ \d{1,2}, \d{4}/
    : /^-?\d+$/.test(answer)
      ? /(?<=\$?)\d+/
      : /^[A-Z][a-z]+( [A-Z][a-z]+)?$/.test(answer)
        ? /(?<=\s)[A-Z][a-z]+(?: [A-Z][a-z]+)?/
        : null;
  const replaced = shape ? sentence.replace(shape, answer) : sentence;
  return replaced !== sentence ? replaced : `${sentence.replace(/[.!?]$/, '')}, which gives ${answer}.`;
}

/**
 * The opening of a truth debater's statement when its prompt holds a passage: a quote in the marks
 * the prompt asks for, and what it is meant to show; null for any other prompt.
 */
export function passageQuote(messages: readonly PromptMessage[], rng: Rng, errorRate: number): string | null {
  const task = messages.at(-1)?.content ?? '';
  const mine = task.match(/You argue that the right answer is: (.+)$/m)?.[1];
  if (!mine || !task.includes('<quote>')) return null;
  const prompt = readTruthPrompt(messages);
  if (!prompt?.passage) return null;
  // The debater's answer is the option its task names (the longer first, should one begin the other).
  const answer = [...prompt.options]
    .sort((x, y) => y.length - x.length)
    .find((option) => mine.startsWith(option));
  if (answer === undefined) return null;
  const support = supportFor(prompt.passage, prompt.question, answer);
  let quoted: string;
  if (support) {
    const copied = support.text.split(/\s+/);
    quoted = (rng.chance(errorRate) ? miscopy(copied, rng) : copied).join(' ');
  } else {
    const near = mostLike(prompt.passage, prompt.question);
    quoted = rng.chance(FABRICATION_RATE) ? withAnswerIn(near, answer) : near;
  }
  return `The passage settles it: <quote>${quoted}</quote> That is why ${answer} is the right answer.`;
}

/** What a judge's material shows for each answer: verified support (+), only unverified claims (-), or nothing (0). */
function quoteEvidence(material: string, prompt: TruthPrompt): [number, number] {
  const evidence: [number, number] = [0, 0];
  const blocks = material
    .split(/^\*\*[^*\n]+\*\* \((?=(?:Debater [AB]|consultant), for Answer [12]: )/m)
    .slice(1);
  for (const block of blocks) {
    const at = block.match(/^(?:Debater [AB]|consultant), for Answer ([12]): /)?.[1] === '1' ? 0 : 1;
    const answer = words(prompt.options[at]);
    for (const quote of block.matchAll(/<v_quote>([\s\S]*?)<\/v_quote>/g)) {
      const text = quote[1] ?? '';
      const support = supportFor(text, prompt.question, prompt.options[at]);
      if (support) evidence[at] = Math.max(evidence[at], 1 + support.score);
    }
    if (evidence[at] === 0) {
      for (const quote of block.matchAll(/<u_quote>([\s\S]*?)<\/u_quote>/g)) {
        if (holds(words(quote[1] ?? ''), answer)) evidence[at] = -1;
      }
    }
  }
  return evidence;
}

/** How a judge that weighs the passage's evidence leans: towards one answer, or no lean (null). */
export function passageLean(messages: readonly PromptMessage[]): '1' | '2' | null {
  const prompt = readTruthPrompt(messages);
  if (!prompt) return null;
  let scores: [number, number];
  // A judge is shown the passage only when it is to read it itself.
  if (prompt.passage) {
    const passage = prompt.passage;
    scores = [0, 1].map(
      (at) => supportFor(passage, prompt.question, prompt.options[at] as string)?.score ?? 0,
    ) as [number, number];
  } else {
    scores = quoteEvidence(messages.map((message) => message.content).join('\n'), prompt);
  }
  if (scores[0] === scores[1]) return null;
  return scores[0] > scores[1] ? '1' : '2';
}
