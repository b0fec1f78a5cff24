/**
 * Cheap, deterministic key-point extraction for AgentMemory and round transitions: the leading
 * sentence of each paragraph, preferring sentences that carry a claim. No model call, so memory
 * costs nothing and replays identically.
 */

const CLAIM_MARKERS =
  /\b(because|therefore|must|should|evidence|shows?|means|clearly|fails?|consider|research|data)\b/i;
const MAX_POINT_LENGTH = 220;

function sentencesOf(paragraph: string): string[] {
  return paragraph
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z"“(])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 20 && !sentence.startsWith('['));
}

function shorten(sentence: string): string {
  return sentence.length <= MAX_POINT_LENGTH
    ? sentence
    : `${sentence.slice(0, MAX_POINT_LENGTH - 1).trimEnd()}…`;
}

export function extractKeyPoints(rawText: string, limit = 3): string[] {
  // Bracketed notes such as "[Time limit reached]" are the engine's, not the speaker's.
  const text = rawText.replace(/\[[^\]\n]*\]\s*$/gm, '').trim();
  const points: string[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const sentences = sentencesOf(paragraph);
    const chosen = sentences.find((sentence) => CLAIM_MARKERS.test(sentence)) ?? sentences[0];
    if (chosen && !points.includes(shorten(chosen))) points.push(shorten(chosen));
    if (points.length >= limit) break;
  }
  if (points.length === 0) {
    const fallback = sentencesOf(text)[0];
    if (fallback) points.push(shorten(fallback));
  }
  return points;
}
