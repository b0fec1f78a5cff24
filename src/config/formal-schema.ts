/**
 * The formal debate (seed 001): two models, affirmative and negative, through preparation, opening
 * statements, rebuttals, cross-examination and closing statements, with an optional verdict.
 */
import { z } from 'zod';
import {
  commonFields,
  criteriaSchema,
  DEFAULT_CRITERIA,
  humanField,
  nonBlank,
  positiveInteger,
  temperatureSchema,
  thinkField,
} from './schema-parts.js';
import { timeoutSecondsSchema } from './timeout-seconds.js';

const debaterSchema = z.strictObject({
  name: nonBlank('the name shown in transcripts'),
  model: nonBlank('an Ollama model name, e.g. llama3'),
  role: z.string().optional().describe('Optional persona added to the debater prompt.'),
  fallback_models: z.array(nonBlank('an Ollama model name')).default([]),
  think: thinkField,
  human: humanField(
    "A person speaks for this debater in every phase, preparation included (typed at the terminal, piped in, or written in the viewer); the debater's model still does the calls that default to it (the moderator's or the judge's, when none is named).",
  ),
});

export const formalSchema = z
  .strictObject({
    ...commonFields('the motion, e.g. "This house would ban private cars from city centres"'),
    format: z.literal('formal', { error: 'must be "formal"' }),
    positions: z
      .strictObject({
        affirmative: nonBlank('the label of the side in favour').default('For the motion'),
        negative: nonBlank('the label of the side against').default('Against the motion'),
      })
      .default({ affirmative: 'For the motion', negative: 'Against the motion' }),
    debaters: z
      .array(debaterSchema)
      .length(2, { error: 'needs exactly two debaters (leave it out to pick two models from the server)' })
      .optional()
      .describe(
        'Two debaters on two different models; sides are drawn by seed. Omit to pick from the server.',
      ),
    model_options: z
      .strictObject({
        temperature: temperatureSchema.default(0.7),
        max_tokens: positiveInteger.default(500).describe('Token cap for one statement.'),
        context_window: positiveInteger.default(8192),
      })
      .default({ temperature: 0.7, max_tokens: 500, context_window: 8192 }),
    statements: z
      .strictObject({
        time_limit_seconds: timeoutSecondsSchema
          .default(180)
          .describe('Wall time allowed for one model call, in seconds (1 to 86400).'),
        word_limit: positiveInteger.optional().describe('Most words one statement may have.'),
        word_limit_mode: z
          .enum(['truncate', 'regenerate'], { error: 'must be "truncate" or "regenerate"' })
          .default('truncate')
          .describe('Over the word limit: cut the statement, or ask once for a shorter one (then cut).'),
        strict_mode: z
          .boolean()
          .default(false)
          .describe(
            'A moderator checks each statement for topic and conventions; a failing one is regenerated once.',
          ),
        moderator_model: z
          .string()
          .optional()
          .describe('Model of the moderator; default: the verdict judge, else the affirmative.'),
      })
      .default({ time_limit_seconds: 180, word_limit_mode: 'truncate', strict_mode: false }),
    preparation: z
      .strictObject({
        max_tokens: positiveInteger.default(600),
        show: z
          .boolean()
          .default(true)
          .describe("Show each side's prepared case in the transcript and terminal."),
      })
      .default({ max_tokens: 600, show: true }),
    verdict: z
      .strictObject({
        enabled: z.boolean().default(false),
        judge_model: z
          .string()
          .optional()
          .describe("Default: a model on the server that neither debater uses (else the affirmative's)."),
        max_tokens: positiveInteger.default(400),
        criteria: criteriaSchema(DEFAULT_CRITERIA),
        side_swap: z
          .boolean()
          .default(true)
          .describe(
            'Ask the judge twice, the second time with the negative introduced first; a disagreement is a tie. On by default: small judges favour the side they read first.',
          ),
      })
      .default({ enabled: false, max_tokens: 400, criteria: DEFAULT_CRITERIA, side_swap: true }),
  })
  .describe('An Agora formal debate scenario.');

export type FormalFile = z.output<typeof formalSchema>;
export type FormalDebater = z.output<typeof debaterSchema>;
