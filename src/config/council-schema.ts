/**
 * The five-role council (seed 003): a fixed state machine Intake → Round1 → Round2 → Round3 →
 * Consensus → Judge → Packetize → Writeback, ending in a Final Packet.
 */
import { z } from 'zod';
import { commonFields, nonBlank, positiveInteger, temperatureSchema, thinkField } from './schema-parts.js';

const participant = (model: string) =>
  z
    .strictObject({
      model: nonBlank('an Ollama model name'),
      fallback_models: z.array(nonBlank('an Ollama model name')).default([]),
      think: thinkField,
    })
    .default({ model, fallback_models: [] });

export const COUNCIL_ROLES = ['Proponent', 'Critic', 'Analyst', 'Synthesizer', 'Judge'] as const;
export type CouncilRole = (typeof COUNCIL_ROLES)[number];

export const councilSchema = z
  .strictObject({
    ...commonFields('the question to decide, e.g. "Which database should the billing service use?"'),
    format: z.literal('council', { error: 'must be "council"' }),
    constraints: z.array(z.string()).default([]),
    options: z
      .array(nonBlank('one option the council chooses among, e.g. "PostgreSQL"'))
      .min(2, { error: 'needs at least two options (leave it out for a yes-or-no proposal)' })
      .optional()
      .describe(
        'The options the question offers; each role takes one as its stance. Without them: for, against or conditional on the proposal.',
      ),
    output_type: z
      .enum(['decision', 'writing', 'architecture', 'planning', 'evaluation'], {
        error: 'must be decision, writing, architecture, planning or evaluation',
      })
      .default('decision'),
    participants: z
      .strictObject({
        proponent: participant('llama3'),
        critic: participant('mistral'),
        analyst: participant('llama3'),
        synthesizer: participant('mistral'),
        judge: participant('llama3'),
      })
      .default({
        proponent: { model: 'llama3', fallback_models: [] },
        critic: { model: 'mistral', fallback_models: [] },
        analyst: { model: 'llama3', fallback_models: [] },
        synthesizer: { model: 'mistral', fallback_models: [] },
        judge: { model: 'llama3', fallback_models: [] },
      }),
    max_tokens: positiveInteger.default(600),
    judge_max_tokens: positiveInteger.default(1200),
    model_options: z
      .strictObject({
        temperature: temperatureSchema.default(0.5),
        context_window: positiveInteger.default(8192),
      })
      .default({ temperature: 0.5, context_window: 8192 }),
    writeback: z
      .strictObject({
        folder: z
          .string()
          .default('notes')
          .describe('Where decision records go: relative to the runs folder, or absolute.'),
      })
      .default({ folder: 'notes' }),
  })
  .describe('An Agora council scenario.');

export type CouncilFile = z.output<typeof councilSchema>;
