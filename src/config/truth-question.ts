/** One question of a truth run: generated from the seed or read from the user's file. */
import type { TRUTH_QUESTION_KINDS } from './truth-schema.js';

export type QuestionKind = (typeof TRUTH_QUESTION_KINDS)[number];

export interface TruthQuestion {
  /** A short name for the question, unique within a run ("q1", or the file's `id`). */
  id: string;
  question: string;
  answer: string;
  wrong_answer: string;
  /** Text the debaters see and the judge does not. */
  passage?: string;
  /** Which passage it is, when several questions share one ("p1"); questions of one passage are not independent. */
  passage_id?: string;
  /** The generator's kind, or absent for a question from a file. */
  kind?: QuestionKind;
}
