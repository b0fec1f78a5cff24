/**
 * The judged duel (seed 000): each round Debater A, Debater B, then the Judge, every step
 * persisted before the next, with seed 000's default stop conditions and output limits.
 */
import { z } from 'zod';
import {
  commonFields,
  humanField,
  judgeNotHuman,
  nonBlank,
  positiveInteger,
  STOP_DEFAULTS,
  temperatureSchema,
  thinkField,
} from './schema-parts.js';

const participant = (defaultName: string) =>
  z.strictObject({
    name: nonBlank('the name shown in transcripts').default(defaultName),
    model: nonBlank('an Ollama model name, e.g. llama3'),
    role: z.string().optional().describe('Optional persona added to the prompt.'),
    fallback_models: z.array(nonBlank('an Ollama model name')).default([]),
    think: thinkField,
  });

/** A debater's seat, which a person may take; the judge's is always a model's. */
const debater = (defaultName: string) =>
  participant(defaultName).extend({
    human: humanField(
      "A person speaks for this debater (typed at the terminal, piped in, or written in the viewer); the debater's model is then not called.",
    ),
  });

export const duelSchema = z
  .strictObject({
    ...commonFields('the motion, e.g. "Remote work is better than office work"', {
      ...STOP_DEFAULTS,
      // Seed 000's budget is the duel's own: 600 s of activity and 8000 output tokens.
      max_runtime_seconds: 600,
      max_total_output_tokens: 8000,
      // Seed 000 stops a duel when the judge sees no new arguments twice running.
      judge_early_stop: true,
    }),
    format: z.literal('duel', { error: 'must be "duel"' }),
    positions: z
      .strictObject({
        a: nonBlank('the label of side A').default('For'),
        b: nonBlank('the label of side B').default('Against'),
      })
      .default({ a: 'For', b: 'Against' }),
    debaters: z.strictObject({ a: debater('Debater A'), b: debater('Debater B') }),
    judge: participant('Judge').extend({
      human: judgeNotHuman,
      side_swap: z
        .boolean()
        .default(true)
        .describe(
          "Ask the judge twice per round, the second time with the sides' labels exchanged (B's statements as A's, in the order spoken); a disagreement is even. On by default: small judges favour the side they read as A.",
        ),
    }),
    max_rounds: positiveInteger.default(5),
    debater_max_tokens: positiveInteger.default(600),
    judge_max_tokens: positiveInteger.default(400),
    model_options: z
      .strictObject({
        temperature: temperatureSchema.default(0.7),
        context_window: positiveInteger.default(8192),
      })
      .default({ temperature: 0.7, context_window: 8192 }),
  })
  .describe('An Agora judged duel scenario.');

export type DuelFile = z.output<typeof duelSchema>;
