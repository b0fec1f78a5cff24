/**
 * Readable, topic-aware debate prose built from the sentence bank: speeches for ordinary turns,
 * a compact summary when asked to summarise, and short sentences for JSON string fields.
 */
import type { PromptHints } from './prompt-text.js';
import { CRITIQUES, SPEECH, SUMMARY } from './prose-bank.js';
import { copyQuote, QUOTE_ERROR_RATE } from './quote-copy.js';
import type { Rng } from './random.js';
import { countTokens } from './tokens.js';

const FALLBACK_TERMS = ['the evidence', 'the long-term consequences', 'public trust', 'fairness', 'the cost'];

/** Values that fill the template placeholders for one answer. */
interface Fill {
  topic: string;
  side: string;
  opp: string;
  name: string;
  x: string;
  y: string;
  terms: string[];
}

/** A motion as a noun phrase that reads well inside any template. */
export function topicPhrase(motion: string | undefined): string {
  if (motion === undefined) return 'the motion before us';
  const text = motion.trim().replace(/[.!]+$/, '');
  const would = /^this house (?:would|should)\s+(.+)$/i.exec(text);
  if (would?.[1] !== undefined) return `the proposal to ${would[1]}`;
  const believes = /^this house believes(?:\s+that)?\s+(.+)$/i.exec(text);
  if (believes?.[1] !== undefined) return `the claim that ${believes[1]}`;
  if (text.endsWith('?')) return `the question "${text}"`;
  const verbs = /\b(is|are|was|were|should|would|will|can|must|be|has|have|do|does)\b/i;
  if (text.split(/\s+/).length <= 6 && !verbs.test(text)) return lowerFirst(text);
  return `the motion "${text}"`;
}

/** A position label as it should appear mid-sentence: quoted, since labels are often whole clauses. */
function labelPhrase(label: string): string {
  return `"${label.trim().replace(/[.!]+$/, '')}"`;
}

/** Lower-cases an ordinary leading capital, but keeps acronyms and proper-noun phrases. */
function lowerFirst(text: string): string {
  // "Roe v. Wade" is a name: its "v." is not an ordinary word after it.
  return /^\p{Lu}\p{Ll}+(?:\s+(?!v\.)\p{Ll}|$)/u.test(text)
    ? text.charAt(0).toLowerCase() + text.slice(1)
    : text;
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fillFor(hints: PromptHints): Fill {
  const first = hints.positions[0];
  const second = hints.positions[1];
  const side = hints.side ?? first;
  const opp = hints.opponent ?? (side === second ? first : second);
  return {
    topic: topicPhrase(hints.motion),
    side: side === undefined ? 'the proposition' : labelPhrase(side),
    opp: opp === undefined ? 'the opposition' : labelPhrase(opp),
    name: hints.name ?? 'a speaker in this debate',
    x: first === undefined ? 'the proposition' : labelPhrase(first),
    y: second === undefined ? 'the opposition' : labelPhrase(second),
    terms: [...hints.terms, ...FALLBACK_TERMS],
  };
}

/** Fills one template, drawing distinct key terms for {t1}, {t2} and {t3}. */
function fill(template: string, values: Fill, rng: Rng): string {
  // Prefer the terms taken from the prompt; the fallbacks only pad short lists.
  const own = values.terms.length - FALLBACK_TERMS.length;
  const pool = own >= 3 ? values.terms.slice(0, own) : values.terms;
  const start = rng.int(0, pool.length - 1);
  const term = (i: number): string => pool[(start + i) % pool.length] ?? 'the evidence';
  const text = template.replace(/\{(\w+)\}/g, (_all, key: string) => {
    if (key === 't1' || key === 't2' || key === 't3') return term(Number(key.slice(1)) - 1);
    const value = values[key as keyof Omit<Fill, 'terms'>];
    return typeof value === 'string' ? value : `{${key}}`;
  });
  return upperFirst(text);
}

/** Picks a template not used yet in this answer when possible. */
function pickFresh(templates: readonly string[], used: Set<string>, rng: Rng): string {
  const fresh = templates.filter((t) => !used.has(t));
  const choice = rng.pick(fresh.length > 0 ? fresh : templates);
  used.add(choice);
  return choice;
}

/** How long simulated speeches are, in words, when a server is asked for realistic lengths. */
export interface SpeechLength {
  minWords: number;
  maxWords: number;
}

const countWords = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** A debate speech of roughly `target` tokens (or words), in short paragraphs. */
export function composeSpeech(
  hints: PromptHints,
  rng: Rng,
  target: number,
  unit: 'tokens' | 'words' = 'tokens',
): string {
  const measure = unit === 'words' ? countWords : countTokens;
  const values = fillFor(hints);
  const used = new Set<string>();
  const openers = hints.name !== undefined && rng.chance(0.4) ? SPEECH.namedOpeners : SPEECH.openers;
  const sentences = [fill(pickFresh(openers, used, rng), values, rng)];
  let size = measure(sentences[0] ?? '');
  // A rough argumentative arc: claim, support, answer the other side, press a question.
  const arc = [
    SPEECH.claims,
    SPEECH.evidence,
    SPEECH.rebuttals,
    SPEECH.claims,
    SPEECH.evidence,
    SPEECH.questions,
  ];
  let step = 0;
  let asked = false;
  const closingReserve = unit === 'words' ? 22 : 30;
  while (size + closingReserve < target) {
    let group = arc[step % arc.length] ?? SPEECH.claims;
    if (group === SPEECH.questions && (asked || rng.chance(0.3))) group = SPEECH.rebuttals;
    if (group === SPEECH.questions) asked = true;
    const sentence = fill(pickFresh(group, used, rng), values, rng);
    sentences.push(sentence);
    size += measure(sentence) + (unit === 'words' ? 0 : 1);
    step += rng.chance(0.2) ? 2 : 1;
  }
  sentences.push(fill(pickFresh(SPEECH.conclusions, used, rng), values, rng));
  return paragraphs(sentences, rng);
}

/** Joins sentences into paragraphs of three or four sentences. */
function paragraphs(sentences: readonly string[], rng: Rng): string {
  const out: string[] = [];
  let current: string[] = [];
  let size = rng.int(3, 4);
  for (const sentence of sentences) {
    current.push(sentence);
    if (current.length >= size) {
      out.push(current.join(' '));
      current = [];
      size = rng.int(3, 4);
    }
  }
  if (current.length > 0) out.push(current.join(' '));
  return out.join('\n\n');
}

/**
 * A summary naming both positions and their key points: compact, or of about `words` words, its
 * middle going over both sides' points again and again as a long summary of many rounds would.
 */
export function composeSummary(hints: PromptHints, rng: Rng, words?: number): string {
  const values = fillFor(hints);
  const sentences = [SUMMARY.openers, SUMMARY.firstSide, SUMMARY.secondSide, SUMMARY.closers].map((group) =>
    fill(rng.pick(group), values, rng),
  );
  if (words === undefined) return sentences.join(' ');
  const closer = sentences.pop() as string;
  const middle = [SUMMARY.firstSide, SUMMARY.secondSide, SPEECH.evidence, SUMMARY.closers];
  let size = countWords(sentences.join(' ')) + countWords(closer);
  for (let step = 0; size < words - 10; step++) {
    const sentence = fill(rng.pick(middle[step % middle.length] ?? SUMMARY.closers), values, rng);
    sentences.push(sentence);
    size += countWords(sentence);
  }
  return paragraphs([...sentences, closer], rng);
}

/** How many words a 7-8B model writes per round it summarises, whatever length it was asked for. */
export const SUMMARY_WORDS_PER_ROUND = { min: 60, max: 120 } as const;

/**
 * The answer for an ordinary prose request: a summary if asked for one, otherwise a speech. A
 * summary of rounds a request names is 60-120 words a round, as small models write them. With
 * `speech`, speeches are that many words and other summaries as many as asked for; else both are short.
 */
export function composeProse(hints: PromptHints, rng: Rng, speech?: SpeechLength): string {
  if (hints.summarise && hints.summaryRounds !== undefined) {
    let words = 0;
    for (let round = 0; round < hints.summaryRounds; round += 1) {
      words += rng.int(SUMMARY_WORDS_PER_ROUND.min, SUMMARY_WORDS_PER_ROUND.max);
    }
    return composeSummary(hints, rng, words);
  }
  // Realistic lengths: a summary as long as it was asked to be, else as long as a speech.
  if (hints.summarise && speech !== undefined) {
    return composeSummary(hints, rng, hints.words ?? rng.int(speech.minWords, speech.maxWords));
  }
  if (hints.summarise) return composeSummary(hints, rng);
  if (speech === undefined) return composeSpeech(hints, rng, rng.int(90, 260));
  return composeSpeech(hints, rng, rng.int(speech.minWords, speech.maxWords), 'words');
}

/** A short sentence suited to a JSON string property, chosen by the property's name. */
export function fieldText(
  hints: PromptHints,
  property: string | undefined,
  rng: Rng,
  quoteErrors = QUOTE_ERROR_RATE,
): string {
  const values = fillFor(hints);
  const key = (property ?? '').toLowerCase();
  // A note-taker copies a claim or a quote from what was just said: the opening words of one of
  // its sentences, now and then with a small mistake.
  if (hints.quote && /^(claim|quote)$/.test(key)) {
    const sentence = quotableSentence(hints.recent, rng);
    if (sentence) return key === 'quote' ? copyQuote(sentence, rng, quoteErrors) : sentence;
  }
  if (/comment|critique|feedback|reason|rationale|explanation|justification|analysis|notes?$/.test(key)) {
    return fill(rng.pick(CRITIQUES), values, rng);
  }
  if (/summary/.test(key)) return composeSummary(hints, rng);
  // Evidence is named in a few words, not argued.
  if (/^evidence$/.test(key))
    return fill(rng.pick(['the record on {t1}', 'studies of {t1}', 'the example of {t2}', '']), values, rng);
  if (/winner|side|position|choice|verdict/.test(key)) {
    return rng.pick(hints.positions.length > 0 ? hints.positions : ['Proposition', 'Opposition']);
  }
  if (/name|speaker|author/.test(key)) return hints.name ?? rng.pick(['Speaker A', 'Speaker B']);
  if (/title|headline|label/.test(key)) return upperFirst(`the case for ${values.side}`);
  if (/question/.test(key)) return fill(rng.pick(SPEECH.questions), values, rng);
  if (/strength/.test(key)) return fill(rng.pick(SPEECH.claims), values, rng);
  if (/weakness/.test(key)) return fill(rng.pick(SPEECH.rebuttals), values, rng);
  return fill(rng.pick([...SPEECH.claims, ...SPEECH.evidence]), values, rng);
}

/** One whole sentence of `text` (prose lines only, not headings), or undefined when it has none. */
function quotableSentence(text: string, rng: Rng): string | undefined {
  const sentences = text
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^(#|\*\*|Moderator:)/.test(line.trim()))
    .join(' ')
    .split(/(?<=[.!?]["”]?)\s+(?=["“]?[A-Z])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.split(/\s+/).length >= 6);
  return sentences.length > 0 ? rng.pick(sentences) : undefined;
}

/** A short reasoning note, returned as `thinking` when a request sets `think: true`. */
export function composeThinking(hints: PromptHints, rng: Rng): string {
  const values = fillFor(hints);
  return fill(
    rng.pick([
      'I should argue for {side}, answer {opp} directly and build the case around {t1}.',
      'The key points are {t1} and {t2}; I will open with {t1} and finish by rebutting {opp}.',
      'Plan: state the case for {side}, give one concrete example about {t2}, then conclude.',
    ]),
    values,
    rng,
  );
}
