/**
 * Judges measured against the truth: questions with a known answer and one plausible wrong answer,
 * put to a judge alone (`direct`), through one consultant it may question (`consultancy`), and
 * through two debaters, one per answer (`debate`), the same questions under every condition.
 */
import { z } from 'zod';
import {
  commonFields,
  nonBlank,
  positiveInteger,
  STOP_DEFAULTS,
  temperatureSchema,
  thinkField,
} from './schema-parts.js';

export const TRUTH_CONDITIONS = ['direct', 'expert', 'consultancy', 'debate'] as const;
/** The conditions a run has when its scenario names none: `expert` (the judge reads the passage) is asked for by name. */
export const DEFAULT_TRUTH_CONDITIONS = ['direct', 'consultancy', 'debate'] as const;
export type TruthCondition = (typeof TRUTH_CONDITIONS)[number];
/**
 * The generator's kinds, named here so a scenario can be checked without the generator. The first
 * four a judge can work out alone (the control set); `passage` questions are about a generated
 * document that only the debaters read.
 */
export const TRUTH_CONTROL_KINDS = ['arithmetic', 'calendar', 'units', 'logic'] as const;
export const TRUTH_QUESTION_KINDS = [...TRUTH_CONTROL_KINDS, 'passage'] as const;
/** Most questions one run generates or takes from a file. */
export const MAX_TRUTH_QUESTIONS = 500;

const participant = (defaultName: string) =>
  z.strictObject({
    name: nonBlank('the name shown in transcripts').default(defaultName),
    model: nonBlank('an Ollama model name, e.g. llama3'),
    role: z.string().optional().describe('Optional persona added to the prompt.'),
    fallback_models: z.array(nonBlank('an Ollama model name')).default([]),
    think: thinkField,
  });

export const truthQuestionSchema = z.strictObject({
  id: nonBlank('a short name for the question').optional(),
  question: nonBlank('the question'),
  answer: nonBlank('the right answer'),
  wrong_answer: nonBlank('a plausible wrong answer'),
  passage: z.string().optional().describe('Text the debaters see and the judge does not.'),
  kind: z.enum(TRUTH_QUESTION_KINDS).optional(),
});

export const truthSchema = z
  .strictObject({
    ...commonFields('what the questions are about, e.g. "Arithmetic, dates, units and logic"', {
      ...STOP_DEFAULTS,
      // One question under three conditions is about ten calls: a budget for a few dozen questions.
      max_runtime_seconds: 7200,
      max_total_output_tokens: 400_000,
    }),
    topic: nonBlank('what the questions are about').default('Questions with known answers'),
    format: z.literal('truth', { error: 'must be "truth"' }),
    questions: z
      .union([
        positiveInteger.max(MAX_TRUTH_QUESTIONS, {
          error: `must be at most ${MAX_TRUTH_QUESTIONS}; run several batches for more`,
        }),
        z
          .array(truthQuestionSchema)
          .min(1, { error: 'needs at least one question' })
          .max(MAX_TRUTH_QUESTIONS),
      ])
      .default(5)
      .describe('How many questions to generate from the seed, or the questions themselves.'),
    question_kinds: z
      .array(z.enum(TRUTH_QUESTION_KINDS, { error: `must be one of ${TRUTH_QUESTION_KINDS.join(', ')}` }))
      .min(1, { error: 'needs at least one kind' })
      .default([...TRUTH_CONTROL_KINDS])
      .describe(
        'The kinds of generated questions, taken in turn; `passage` questions (four to a generated document the judge does not see) are not among the default ones.',
      ),
    questions_file: nonBlank('a .yaml or .jsonl file of questions')
      .optional()
      .describe(
        'Questions from a YAML or JSONL file (question, answer, wrong_answer, optional id and passage), relative to the scenario; it takes the place of `questions`.',
      ),
    conditions: z
      .array(z.enum(TRUTH_CONDITIONS, { error: `must be one of ${TRUTH_CONDITIONS.join(', ')}` }))
      .min(1, { error: 'needs at least one condition' })
      .refine((list) => new Set(list).size === list.length, { error: 'names a condition twice' })
      .default([...DEFAULT_TRUTH_CONDITIONS])
      .describe('The conditions every question runs under, in this order.'),
    debaters: z.strictObject({ a: participant('Debater A'), b: participant('Debater B') }),
    judge: participant('Judge'),
    max_rounds: positiveInteger
      .max(10, { error: 'must be at most 10' })
      .default(2)
      .describe('Rounds of a debate, and statements of a consultant.'),
    debater_max_tokens: positiveInteger.default(300),
    judge_max_tokens: positiveInteger.default(400),
    model_options: z
      .strictObject({
        temperature: temperatureSchema.default(0.7),
        context_window: positiveInteger.default(8192),
      })
      .default({ temperature: 0.7, context_window: 8192 }),
  })
  .describe('An Agora truth scenario: judges measured on questions with known answers.');

export type TruthFile = z.output<typeof truthSchema>;
export type TruthQuestionItem = z.output<typeof truthQuestionSchema>;
