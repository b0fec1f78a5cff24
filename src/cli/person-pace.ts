/**
 * How long a person may speak, as the terminal and the viewer tell them: their words are a
 * model's tokens at 4/3 a word, timed at the debate's speaking rate. A knockout's speaking timer
 * sets the rate; a formal debate's statements have a time limit, counted at the rate a person's
 * statement is timed at (see `PERSON_TOKENS_PER_SECOND`); a duel has only the cap.
 */
import type { Scenario } from '../config/scenario.js';
import {
  PERSON_TOKENS_PER_SECOND,
  TOKENS_PER_WORD,
  wordsInSeconds,
  wordsInTokens,
} from '../llm/podium-provider.js';

export interface PersonPace {
  /** Seconds of speaking time one word uses, when the debate times its speakers. */
  secondsPerWord?: number;
  /** The speaking time one statement may take, when the debate has a time limit per statement. */
  limitSeconds?: number;
}

export function personPace(scenario: Scenario): PersonPace {
  if (scenario.format === 'knockout')
    return { secondsPerWord: TOKENS_PER_WORD / scenario.timer.tokens_per_second };
  if (scenario.format === 'formal') {
    return {
      secondsPerWord: TOKENS_PER_WORD / PERSON_TOKENS_PER_SECOND,
      limitSeconds: scenario.statements.time_limit_seconds,
    };
  }
  return {};
}

/**
 * The most words a statement keeps: the cap a model in the seat has (`maxTokens`), the words the
 * time limit leaves, and the word limit the task states, whichever is least.
 */
export function turnLimitWords(maxTokens: number, pace: PersonPace, wordLimit?: number): number {
  const limits = [wordsInTokens(maxTokens)];
  if (pace.limitSeconds !== undefined) limits.push(wordsInSeconds(pace.limitSeconds));
  if (wordLimit !== undefined) limits.push(wordLimit);
  return Math.max(1, Math.min(...limits));
}
