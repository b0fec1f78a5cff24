/**
 * One finished debate of a tournament, as the standings read it: who sat on which side, how it came
 * out, how each judge read it in both orders, and the style of each side's speech. The tournament
 * builds these from its debates' transcripts; the standings know nothing else about a debate.
 */

/** Which side a judge, or a debate, favoured. */
export type SideChoice = 'first' | 'second' | 'tie';

/** One judge's two readings of one judged unit (a duel round, a formal verdict). */
export interface JudgeReading {
  /** The judge's model. */
  judgeModel: string;
  /** The side the judge chose reading the debate with the first side presented first. */
  inOrder: SideChoice;
  /**
   * The side (named as in the debate, not as presented) the same judge chose reading it with the
   * sides presented the other way round; null when the judge was asked once only.
   */
  swapped: SideChoice | null;
  /**
   * The judged unit within the debate (a duel round's number, say): readings that share it judged
   * the same thing, which is what a judge's agreement with the panel compares. Absent: the whole
   * debate is one unit.
   */
  unit?: string;
}

/** What a side's speech looked like, measured on its recorded statements. */
export interface StyleFeatures {
  /** Output tokens per statement, as the server counted them (mean over the side's statements). */
  tokensPerStatement: number;
  /** Markdown elements (headings, list items, bold or italic spans) per statement. */
  markdownPerStatement: number;
}

/** One tournament debate. */
export interface TournamentMatch {
  /** The debate's run id. */
  runId: string;
  /** The motion's id within the tournament (its index in the motions file, from 1). */
  motionId: string;
  /** The model on the first side (duel: Debater A; formal: affirmative; knockout: Position X). */
  first: string;
  /** The model on the second side. */
  second: string;
  /**
   * The debate's result for the first side: 1 a win, 0 a loss, 0.5 a tie; null when the debate
   * named no winner (stopped, failed, or decided by failures), which the ratings leave out.
   */
  score: 1 | 0.5 | 0 | null;
  style: { first: StyleFeatures; second: StyleFeatures };
  /** Every judge reading of the debate (a duel has one per judge per round). */
  readings: JudgeReading[];
}
