/**
 * The knockout scenario (seed 004): one X agent, several Y agents, judged rounds and rotation.
 * Strict: unknown keys are errors. Defaults follow the SRS (sections 2-3).
 */
import { z } from 'zod';
import {
  commonFields,
  criteriaSchema,
  DEFAULT_CRITERIA,
  nonBlank,
  nonNegativeInteger,
  positiveInteger,
  positiveNumber,
  temperatureSchema,
} from './schema-parts.js';

export const positionSchema = z.enum(['X', 'Y'], { error: 'must be "X" or "Y"' });

export const agentSchema = z.strictObject({
  name: nonBlank('the agent name shown in transcripts'),
  position: positionSchema,
  model: nonBlank('an Ollama model name, e.g. llama3'),
  role: nonBlank('the persona: who this agent is and what it values').describe(
    'Customizable role description: persona, values and focus of the agent.',
  ),
  temperature: z.number().min(0).max(2).optional().describe('Overrides model_options.temperature.'),
  think: z
    .boolean()
    .optional()
    .describe('Let a thinking model (qwen3, deepseek-r1) think before it answers; default false.'),
  fallback_models: z
    .array(nonBlank('an Ollama model name'))
    .default([])
    .describe("Models tried in order when this agent's model keeps failing."),
  human: z
    .boolean()
    .optional()
    .describe(
      "A person speaks for this agent (typed at the terminal, piped in, or written in the viewer); the agent's model still does its other calls (a Position Y agent's judging).",
    ),
});

export const knockoutSchema = z
  .strictObject({
    ...commonFields('the debate question, e.g. "Should abortion be legal?"'),
    format: z.literal('knockout', { error: 'must be "knockout"' }).default('knockout'),
    positions: z.strictObject({
      x: nonBlank('the label of Position X, e.g. Pro-Choice'),
      y: nonBlank('the label of Position Y, e.g. Pro-Life'),
    }),
    agents: z
      .array(agentSchema)
      .min(1, { error: 'needs one Position X agent and at least two Position Y agents' }),
    debate: z
      .strictObject({
        rounds: positiveInteger.default(6).describe('Total exchanges in the debate.'),
        starting_position: positionSchema.default('X'),
      })
      .default({ rounds: 6, starting_position: 'X' }),
    rotation: z
      .strictObject({
        threshold: positiveInteger.default(2).describe('Rotate votes needed to rotate the debating Y.'),
        limit: nonNegativeInteger.default(3).describe('Maximum rotations per debate.'),
      })
      .default({ threshold: 2, limit: 3 }),
    timer: z
      .strictObject({
        seconds_per_side: positiveNumber.default(300).describe('Simulated speaking time per side per round.'),
        tokens_per_second: positiveNumber
          .default(3.75)
          .describe('Speaking rate used to turn tokens into seconds.'),
      })
      .default({ seconds_per_side: 300, tokens_per_second: 3.75 }),
    round_time_limit: z
      .strictObject({
        seconds: positiveNumber
          .default(30)
          .describe('Real time a round should take at most, from the previous round’s end to its own.'),
        mode: z
          .enum(['report', 'keep'])
          .default('report')
          .describe(
            "'report' flags the rounds that went over; 'keep' also shortens the speeches still to come in a round running late, from the rate the model's earlier statements were written at.",
          ),
      })
      .default({ seconds: 30, mode: 'report' }),
    model_options: z
      .strictObject({
        temperature: temperatureSchema.default(0.7),
        max_tokens: positiveInteger.default(1024),
        context_window: positiveInteger.default(8192),
      })
      .default({ temperature: 0.7, max_tokens: 1024, context_window: 8192 }),
    judging: z
      .strictObject({
        concurrency: positiveInteger.default(3).describe('Judges scoring at the same time.'),
        max_tokens: positiveInteger.default(400).describe('Token cap for one evaluation.'),
        temperature: temperatureSchema
          .default(0.2)
          .describe('Sampling temperature of judges: low, so a judge scores the same round the same way.'),
        criteria: criteriaSchema(DEFAULT_CRITERIA),
      })
      .default({ concurrency: 3, max_tokens: 400, temperature: 0.2, criteria: DEFAULT_CRITERIA }),
    commentary: z
      .strictObject({
        model: nonBlank('an Ollama model name, e.g. llama3').describe('The commentator’s model.'),
        name: nonBlank('the commentator’s name').default('Commentator'),
        persona: z
          .string()
          .optional()
          .describe('Who the commentator is, e.g. "a former debate coach with a dry wit".'),
        max_tokens: positiveInteger.default(200).describe('Token cap for one commentary.'),
      })
      .optional()
      .describe(
        'An optional commentator who says, after each round, what happened, who is ahead and what to watch. Shown live and kept in the transcript; never shown to debaters or judges.',
      ),
    memory: z
      .strictObject({
        claims: z
          .enum(['model', 'heuristic', 'off'])
          .default('model')
          .describe(
            "The claims ledger behind each agent's memory: 'model' extracts each statement's claims with a small structured call; 'heuristic' takes key sentences (no call); 'off' uses key sentences and keeps no ledger.",
          ),
        claims_max_tokens: positiveInteger.default(240).describe('Token cap for one claims extraction.'),
        claims_model: z
          .string()
          .optional()
          .describe('Model that extracts claims; default: the model of whoever speaks or judges next.'),
      })
      .default({ claims: 'model', claims_max_tokens: 240 }),
    context: z
      .strictObject({
        margin_tokens: nonNegativeInteger.default(256).describe('Tokens kept free besides the answer.'),
        summary_max_tokens: positiveInteger.default(512).describe('Token cap for one running summary.'),
        summary: z
          .enum(['model', 'ledger'])
          .default('ledger')
          .describe(
            "How a fold writes its part of the running summary: 'model' asks a model for it; 'ledger' writes each folded statement's claims from the claims ledger (the speakers' own sentences), with no model call, and a rewrite of all parts from the ledger too (with memory.claims off, every fold asks a model).",
          ),
        summariser_model: z
          .string()
          .optional()
          .describe(
            "Model that writes summaries; default: the model of the round's last call (the judges' as a rule), which is loaded.",
          ),
      })
      .default({ margin_tokens: 256, summary_max_tokens: 512, summary: 'ledger' }),
  })
  .describe('An Agora knockout debate scenario.');

export type KnockoutFile = z.output<typeof knockoutSchema>;
export type AgentConfig = z.output<typeof agentSchema>;
export type Position = z.output<typeof positionSchema>;
