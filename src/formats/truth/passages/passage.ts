/**
 * A generated passage: a short document whose facts the generator chose and wrote into its text, and
 * the questions it answers. Each question needs one or two facts from different places in the text,
 * and its wrong answer is the one a skimming reader gives (a figure from the wrong quarter, the person
 * named just before, the date of the announcement instead of the decision).
 */
export interface PassageQuestion {
  question: string;
  answer: string;
  wrong_answer: string;
}

export interface GeneratedPassage {
  /** What kind of document it is, e.g. "quarterly report". */
  document: string;
  /** The document's text, paragraphs separated by blank lines. */
  text: string;
  /** At most five. */
  questions: PassageQuestion[];
}

/** Paragraphs joined as the document's text. */
export function paragraphs(...parts: string[][]): string {
  return parts.map((sentences) => sentences.join(' ')).join('\n\n');
}
