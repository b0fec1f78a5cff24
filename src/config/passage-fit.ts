/**
 * Whether each question's passage fits a debater's prompt beside the debate: the passage stands in
 * every debater's and consultant's prompt, with the statements made before the last one, and prompts
 * are sent whole. A passage that cannot fit is refused before the run starts, with the size that fits.
 */
import type { ConfigIssue } from '../core/errors.js';
import { charsWithin, estimateTokens, promptBudget } from '../core/token-estimate.js';
import type { TruthQuestion } from './truth-question.js';

/** What a debater's prompt holds besides the passage and the statements: rules, question, answers, task. */
const OTHER_PROMPT_TOKENS = 400;
const MARGIN_TOKENS = 256;

export interface PassageRoom {
  contextWindow: number;
  debaterMaxTokens: number;
  maxRounds: number;
}

/** The most tokens a passage may take. */
export function passageRoom(room: PassageRoom): number {
  // The last debater's prompt holds every statement of the debate but its own.
  const statements = (2 * room.maxRounds - 1) * room.debaterMaxTokens;
  return (
    promptBudget(room.contextWindow, room.debaterMaxTokens, MARGIN_TOKENS) - statements - OTHER_PROMPT_TOKENS
  );
}

/** One issue per passage (named once, by its first question) that does not fit; `file` names the questions' source. */
export function passagesThatDoNotFit(
  questions: readonly TruthQuestion[],
  room: PassageRoom,
  file: string,
): ConfigIssue[] {
  const most = passageRoom(room);
  const seen = new Set<string>();
  const issues: ConfigIssue[] = [];
  for (const question of questions) {
    if (!question.passage || seen.has(question.passage)) continue;
    seen.add(question.passage);
    const tokens = estimateTokens(question.passage.length);
    if (tokens <= most) continue;
    const which = question.passage_id ? `its passage (${question.passage_id})` : 'its passage';
    issues.push({
      file,
      path: `question ${question.id}`,
      message: `${which} comes to about ${tokens} tokens, more than the ${Math.max(0, most)} a debater's prompt has room for beside the debate (model_options.context_window ${room.contextWindow}, minus debater_max_tokens ${room.debaterMaxTokens} for the answer and for each of the ${2 * room.maxRounds - 1} statements before the last, and the rest of the prompt); shorten the passage to about ${charsWithin(Math.max(0, most))} characters, or raise model_options.context_window if the models support a larger window, or lower max_rounds`,
    });
  }
  return issues;
}
