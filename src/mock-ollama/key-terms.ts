/**
 * Picks key terms out of prompt text for the prose templates: short noun-like phrases such as
 * "air pollution" or "congestion charging", proper nouns such as "Oslo", then single content
 * words. It splits text at function words and common verbs (a light form of RAKE keyword
 * extraction), which is enough to make sentences sound on topic without any language model.
 */

const STOP_WORDS = new Set(
  `a an the and or but if then than that this these those there their they them we you your our ours us
  i me my he she it its is are was were be been being do does did have has had will would shall should
  can could may might must not no yes of to in on at by for from with without about against between into
  through during before after above below over under again further once here when where why how all any
  both each few more most other some such only own same so too very just also because while until which
  who whom what whose as like many much one two three per via upon among within across around whether
  position motion background speaker name argue argues arguing round debate please write reply answer
  respond response words word speech summary summarise summarize opening closing rebuttal turn since ago
  yet still even ever never always often already now today recently less least fewer almost quite rather`.split(
    /\s+/,
  ),
);

// Common verbs break phrases too, so "congestion harm public health" yields two phrases.
const VERBS = new Set(
  `ban bans banned keep keeps kept allow allows allowed make makes made introduce introduces introduced
  require requires required stop stops stopped give gives gave take takes took use uses used say says said
  harm harms harmed cause causes caused reduce reduces reduced increase increases increased improve
  improves improved worry worries worried tried try tries show shows showed shown suggest suggests
  suggested argue claims claim claimed found find finds lead leads led help helps helped become becomes
  became remain remains get gets got put puts set sets rise rises rose fall falls fell cut cuts grow grows
  grew create creates created protect protects protected support supports supported oppose opposes
  opposed prefer prefers believe believes believed think thinks want wants need needs needed face faces
  faced replace replaces replaced fund funds funded pay pays paid cost costs affect affects affected
  report reports reported suffer suffers suffered mean means meant`.split(/\s+/),
);

interface Candidate {
  text: string;
  rank: number;
  count: number;
  first: number;
}

// Nouns that merely look like adverbs because they end in "-ly".
const LY_NOUNS = new Set([
  'family',
  'supply',
  'assembly',
  'monopoly',
  'rally',
  'ally',
  'italy',
  'july',
  'anomaly',
]);

function isBreak(word: string): boolean {
  const lower = word.toLowerCase();
  if (lower.length >= 5 && lower.endsWith('ly') && !LY_NOUNS.has(lower)) return true;
  return STOP_WORDS.has(lower) || VERBS.has(lower) || /^\d/.test(word);
}

function isCapitalised(word: string): boolean {
  return /^\p{Lu}/u.test(word);
}

/** Phrase candidates from one clause: runs of content words between breaks. */
function clauseCandidates(clause: string): { words: string[]; atStart: boolean }[] {
  const words = [...clause.matchAll(/\p{L}[\p{L}'-]*|\d+/gu)].map((m) => m[0]);
  const runs: { words: string[]; atStart: boolean }[] = [];
  let current: string[] = [];
  let currentAtStart = false;
  const flush = (): void => {
    // A trailing past-tense word is usually the verb of the clause ("retail suffered").
    while (current.length > 1 && /\p{Ll}ed$/u.test(current.at(-1) ?? '')) current.pop();
    if (current.length > 0) runs.push({ words: current, atStart: currentAtStart });
    current = [];
  };
  words.forEach((word, index) => {
    // "of" inside a name is kept: "Bureau of Labor Statistics".
    const inName =
      word === 'of' &&
      current.length > 0 &&
      current.every(isCapitalised) &&
      isCapitalised(words[index + 1] ?? '');
    if (isBreak(word) && !inName) {
      flush();
      return;
    }
    if (current.length === 0) currentAtStart = index === 0;
    current.push(word);
  });
  flush();
  return runs;
}

/** Stands for a case name's "v." while the text is cut into clauses at full stops. */
const CASE_V = 'vversus';
const caseWord = (word: string): string => (word === CASE_V ? 'v.' : word);

/** Up to `limit` key terms, best first: phrases, then proper nouns, then longer single words. */
export function keyTerms(text: string, limit = 10): string[] {
  const found = new Map<string, Candidate>();
  let position = 0;
  const add = (words: string[], rank: number): void => {
    const phrase = words.map(caseWord).join(' ');
    const key = phrase.toLowerCase();
    const existing = found.get(key);
    if (existing !== undefined) existing.count++;
    else found.set(key, { text: phrase, rank, count: 1, first: position++ });
  };
  const consider = (runWords: string[], atStart: boolean): void => {
    if (runWords.length === 0) return;
    // A case goes by its short name, wherever it stands: "Dobbs v. Jackson", not "Dobbs v. Jackson Women's Health".
    const v = runWords.indexOf(CASE_V);
    if (v > 0 && isCapitalised(runWords[v - 1] ?? '') && isCapitalised(runWords[v + 1] ?? '')) {
      let first = v - 1;
      while (first > 0 && isCapitalised(runWords[first - 1] ?? '')) first -= 1;
      add(runWords.slice(first, v + 2), 2);
      consider(runWords.slice(0, first), atStart);
      consider(runWords.slice(v + 2), false);
      return;
    }
    // Two or more capitalised words are a name even at the start of a sentence ("Planned Parenthood").
    if (runWords.length > 1 && runWords.every((w) => isCapitalised(w) || w === 'of')) {
      add(runWords.slice(0, 4), 2);
      return;
    }
    // A capital that only marks the start of a sentence is not part of the term.
    const words = runWords.map((w, i) =>
      i === 0 && atStart && /^\p{Lu}\p{Ll}*$/u.test(w) ? w.toLowerCase() : w,
    );
    const proper = words.every((w) => isCapitalised(w) || w === 'of');
    if (proper) add(words.slice(0, 4), 2);
    else if (words.length === 1) {
      if ((words[0] ?? '').length >= 6) add(words, 1);
    } else if (words.length <= 3) add(words, 3);
    else {
      add(words.slice(0, 2), 3);
      add(words.slice(-2), 3);
    }
  };
  // A case name's "v." ("Roe v. Wade") is part of the name, not the end of a sentence; a file's path
  // ("context/abortion/background.md", a heading of included notes) is no phrase of the text.
  const cases = text
    .replace(/\S*\/\S*/g, '.')
    .replace(/(?<=\p{Lu}[\p{L}'-]*)\s+v\.\s+(?=\p{Lu})/gu, ` ${CASE_V} `);
  for (const clause of cases.split(/[.!?;:,()"\n\u201c\u201d]+/)) {
    for (const run of clauseCandidates(clause)) consider(run.words, run.atStart);
  }
  return [...found.values()]
    .sort((a, b) => b.rank - a.rank || b.count - a.count || a.first - b.first)
    .slice(0, limit)
    .map((c) => c.text);
}
