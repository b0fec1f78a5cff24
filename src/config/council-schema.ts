/**
 * The five-role council (seed 003): a fixed state machine Intake → Round1 → Round2 → Round3 →
 * Consensus → Judge → Packetize → Writeback, ending in a Final Packet.
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

/**
 * Seed 003 §4: the council limits its token and time budget and records what it used. The defaults
 * fit the default council (3 rounds of 4 roles at `max_tokens` 600, and the Judge at
 * `judge_max_tokens` 1200) with 7-8B models:
 * - Output tokens: every call at its full cap is 12 × 600 + 1200 = 8400 tokens. A structured answer
 *   that cannot be used is asked for once more with 1.5 times the cap (structured-call.ts), so room
 *   for half the role answers and the Judge's to be asked again adds 6 × 900 + 1800 = 7200: 15,600
 *   in all, rounded up to 16,000. Real 7-8B answers mostly stop well below their cap, so a council
 *   usually spends a third to a half of it.
 * - Active time: those 16,000 tokens at 8 tokens a second (a 7-8B model quantised to 4 bits on a
 *   laptop CPU) take 2000 s, and reading the 13 prompts (the later ones carry the earlier rounds:
 *   about 14,000 prompt tokens for the shipped council, room here for three times that) at 50
 *   tokens a second about 1000 s more: 3600 s, an hour, with headroom. On a GPU the same council
 *   takes a few minutes. The shipped council against the simulator's CPU profile (7 tokens a
 *   second, prompts read at 35) used about 2700 output tokens and 900 s.
 * A scenario that raises the caps, or lets roles think (`think: true` adds `thinking_budget` to
 * every call), should raise `stop` with them; `null` turns a limit off.
 */
export const COUNCIL_STOP_DEFAULTS = {
  ...STOP_DEFAULTS,
  max_runtime_seconds: 3600,
  max_total_output_tokens: 16000,
};

export const councilSchema = z
  .strictObject({
    ...commonFields(
      'the question to decide, e.g. "Which database should the billing service use?"',
      COUNCIL_STOP_DEFAULTS,
    ),
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
