/**
 * Where the sentences of a debater's text end. A sentence ends at its mark (and any closing quote or
 * bracket) before a space and a word that is not in lower case, or at the end of the text; the
 * question "Why?" inside a sentence does not end it, and neither does the full stop of a title or an
 * abbreviation ("Dr. Okafor", "Roe v. Wade", "the U.S. courts", "e.g. Norway"), which debaters,
 * real models as much as people, write all the time.
 */

/** A sentence's end: its mark, and any closing quote or bracket, before a space and a word that is not in lower case. */
const SENTENCE_END = /[.!?…]["'”’)\]]*(?=\s+[^\s\p{Ll}]|\s*$)/gu;
/** Words whose full stop does not end a sentence: titles, "v." and "vs.", "e.g.", "i.e." and initials. */
const ABBREVIATION = /(?:^|[\s(])(?:dr|mr|mrs|ms|prof|st|vs?|e\.g|i\.e|[a-z](?:\.[a-z])*)\.$/i;

/** The offsets just after each sentence end of `text`, in order. */
export function sentenceEnds(text: string): number[] {
  const ends: number[] = [];
  for (const match of text.matchAll(SENTENCE_END)) {
    const after = (match.index ?? 0) + match[0].length;
    if (match[0] === '.' && ABBREVIATION.test(text.slice(Math.max(0, after - 8), after))) continue;
    ends.push(after);
  }
  return ends;
}

/** The sentences of one paragraph, spaces made single. */
export function sentencesOf(paragraph: string): string[] {
  const text = paragraph.replace(/\s+/g, ' ').trim();
  const sentences: string[] = [];
  let start = 0;
  for (const end of sentenceEnds(text)) {
    const sentence = text.slice(start, end).trim();
    if (sentence !== '') sentences.push(sentence);
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest !== '') sentences.push(rest);
  return sentences;
}
