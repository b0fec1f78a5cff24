/**
 * `--questions N|FILE` for a truth run: how many questions to generate from the seed, or a YAML or
 * JSONL file of the user's own (read relative to the working folder).
 */
import path from 'node:path';
import { passagesThatDoNotFit } from '../../config/passage-fit.js';
import { readQuestionFile } from '../../config/question-file.js';
import type { Scenario } from '../../config/scenario.js';
import { MAX_TRUTH_QUESTIONS } from '../../config/truth-schema.js';
import { ConfigError, UsageError } from '../../core/errors.js';

export async function applyQuestionsOption(
  scenario: Scenario,
  value: string | undefined,
  cwd: string,
): Promise<Scenario> {
  if (value === undefined) return scenario;
  if (scenario.format !== 'truth') {
    throw new UsageError(`--questions goes with a truth run (--format truth), not a ${scenario.format} one`);
  }
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const count = Number(text);
    if (count < 1 || count > MAX_TRUTH_QUESTIONS) {
      throw new UsageError(
        `--questions takes 1 to ${MAX_TRUTH_QUESTIONS} questions (or a file), got ${text}`,
      );
    }
    const { questions_file: _file, ...rest } = scenario;
    return { ...rest, questions: count };
  }
  const questions = await readQuestionFile(path.resolve(cwd, text), text);
  const tooLong = passagesThatDoNotFit(
    questions,
    {
      contextWindow: scenario.model_options.context_window,
      debaterMaxTokens: scenario.debater_max_tokens,
      maxRounds: scenario.max_rounds,
    },
    text,
  );
  if (tooLong.length > 0) throw new ConfigError(tooLong);
  const { questions_file: _file, ...rest } = scenario;
  return { ...rest, questions };
}

/** The topic of a truth run started without one: the questions carry their own text. */
export const TRUTH_TOPIC = 'Questions with known answers';
