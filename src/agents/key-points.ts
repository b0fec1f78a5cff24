/**
 * Cheap, deterministic key-point extraction for AgentMemory and round transitions: the leading
 * sentence of each paragraph, preferring sentences that carry a claim. No model call, so memory
 * costs nothing and replays identically.
 */
import { sentencesOf } from '../core/sentences.js';
import { isIntroduction } from './introductions.js';

const CLAIM_MARKERS =
  /\b(because|therefore|must|should|evidence|shows?|means|clearly|fails?|consider|research|data)\b/i;
const MAX_POINT_LENGTH = 220;

/** The paragraph's sentences that can carry a point: long enough, not an introduction or a greeting, none of the engine's bracketed notes. */
function pointSentences(paragraph: string): string[] {
  return sentencesOf(paragraph).filter(
    (sentence) => sentence.length > 20 && !sentence.startsWith('[') && !isIntroduction(sentence),
  );
}

function shorten(sentence: string): string {
  return sentence.length <= MAX_POINT_LENGTH
    ? sentence
    : `${sentence.slice(0, MAX_POINT_LENGTH - 1).trimEnd()}…`;
}

// Agent memory asks for the key points of every statement so far at every turn, and the same few
// statements come up again and again: each text's points are worked out once, for the largest
// limit in use, and kept for the newest few hundred texts. The points for a smaller limit are the
// first ones of a larger limit's (the search goes paragraph by paragraph and stops when it has enough).
const MEMO_LIMIT = 3;
const MEMO_TEXTS = 256;
const memo = new Map<string, readonly string[]>();

export function extractKeyPoints(rawText: string, limit = 3): string[] {
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= MEMO_LIMIT)) return keyPointsOf(rawText, limit);
  let points = memo.get(rawText);
  if (!points) {
    points = keyPointsOf(rawText, MEMO_LIMIT);
    if (memo.size >= MEMO_TEXTS) memo.delete(memo.keys().next().value as string);
    memo.set(rawText, points);
  }
  return points.slice(0, limit);
}

function keyPointsOf(rawText: string, limit: number): string[] {
  // Bracketed notes such as "[Time limit reached]" are the engine's, not the speaker's.
  const text = rawText.replace(/\[[^\]\n]*\]\s*$/gm, '').trim();
  const points: string[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const sentences = pointSentences(paragraph);
    const chosen = sentences.find((sentence) => CLAIM_MARKERS.test(sentence)) ?? sentences[0];
    if (chosen && !points.includes(shorten(chosen))) points.push(shorten(chosen));
    if (points.length >= limit) break;
  }
  if (points.length === 0) {
    const fallback = pointSentences(text)[0];
    if (fallback) points.push(shorten(fallback));
  }
  return points;
}
