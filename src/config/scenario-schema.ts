/**
 * The scenario file's schema. Strict: unknown keys are errors, so a misspelt field is never
 * silently ignored. Defaults follow the knockout SRS (seed 004, sections 2-3).
 */
import { z } from 'zod';

const positiveNumber = z.number({ error: 'must be a number' }).positive({ error: 'must be greater than 0' });
const positiveInteger = z
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .positive({ error: 'must be at least 1' });
const nonNegativeInteger = z
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .min(0, { error: 'must be 0 or more' });
const nonBlank = (what: string) =>
  z.string({ error: `must be text (${what})` }).refine((value) => value.trim().length > 0, {
    error: `must not be empty or only spaces (${what})`,
  });

export const positionSchema = z.enum(['X', 'Y'], { error: 'must be "X" or "Y"' });

export const agentSchema = z.strictObject({
  name: nonBlank('the agent name shown in transcripts'),
  position: positionSchema,
  model: nonBlank('an Ollama model name, e.g. llama3'),
  role: nonBlank('the persona: who this agent is and what it values').describe(
    'Customizable role description: persona, values and focus of the agent.',
  ),
  temperature: z.number().min(0).max(2).optional().describe('Overrides model_options.temperature.'),
  fallback_models: z
    .array(nonBlank('an Ollama model name'))
    .default([])
    .describe("Models tried in order when this agent's model keeps failing."),
});

const scoringGuideSchema = z
  .record(
    z.string().regex(/^[1-5]$/, { error: 'scoring guide keys are scores "1" to "5"' }),
    nonBlank('a description'),
  )
  .describe('What a score means, keyed by score ("1", "3", "5").');

export const criterionSchema = z.strictObject({
  weight: z.number({ error: 'must be a number' }).min(0, { error: 'must be 0 or more' }).max(1, {
    error: 'must be at most 1',
  }),
  description: z.string().optional(),
  scoring_guide: scoringGuideSchema.optional(),
});

export const DEFAULT_CRITERIA = {
  argument_strength: {
    weight: 0.4,
    scoring_guide: {
      '1': 'No substantial arguments or evidence presented',
      '3': 'Some valid points but weak supporting evidence',
      '5': 'Strong arguments with compelling evidence',
    },
  },
  relevance: {
    weight: 0.2,
    scoring_guide: {
      '1': 'Arguments mostly off-topic or tangential',
      '3': 'Arguments somewhat related to the debate topic',
      '5': 'Arguments directly address the central question',
    },
  },
  persuasiveness: {
    weight: 0.3,
    scoring_guide: {
      '1': 'Unconvincing presentation of arguments',
      '3': 'Moderately persuasive delivery',
      '5': 'Highly compelling and convincing rhetoric',
    },
  },
  clarity: {
    weight: 0.1,
    scoring_guide: {
      '1': 'Confusing or poorly structured arguments',
      '3': 'Reasonably clear but some disorganization',
      '5': 'Exceptionally clear, well-organized arguments',
    },
  },
} satisfies Record<string, z.input<typeof criterionSchema>>;

const knowledgeValue = z.union([z.string(), z.array(z.string())]);

export const scenarioSchema = z
  .strictObject({
    $schema: z.string().optional().describe('Path of the JSON Schema, for editors.'),
    format: z.literal('knockout', { error: 'must be "knockout"' }).default('knockout'),
    title: z.string().optional(),
    topic: nonBlank('the debate question, e.g. "Should abortion be legal?"'),
    positions: z.strictObject({
      x: nonBlank('the label of Position X, e.g. Pro-Choice'),
      y: nonBlank('the label of Position Y, e.g. Pro-Life'),
    }),
    seed: z
      .number()
      .int({ error: 'must be a whole number' })
      .default(42)
      .describe('Seed for every random choice.'),
    ollama: z
      .strictObject({
        host: z.string().optional().describe('Ollama address: host, host:port or http://host:port.'),
      })
      .default({}),
    background: z
      .strictObject({
        knowledge: z
          .record(z.string(), knowledgeValue)
          .default({})
          .describe('Standard facts given to every agent, e.g. legal_precedents: [...].'),
        files: z
          .array(z.string())
          .default([])
          .describe('Context files (Markdown or text), relative to the scenario file and inside its folder.'),
      })
      .default({ knowledge: {}, files: [] }),
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
    model_options: z
      .strictObject({
        temperature: z
          .number()
          .min(0, { error: 'must be 0 or more' })
          .max(2, { error: 'must be at most 2' })
          .default(0.7),
        max_tokens: positiveInteger.default(1024),
        context_window: positiveInteger.default(8192),
      })
      .default({ temperature: 0.7, max_tokens: 1024, context_window: 8192 }),
    judging: z
      .strictObject({
        concurrency: positiveInteger.default(3).describe('Judges scoring at the same time.'),
        max_tokens: positiveInteger.default(400).describe('Token cap for one evaluation.'),
        criteria: z
          .record(
            z.string().regex(/^[a-z][a-z0-9_]*$/, { error: 'criterion names are snake_case' }),
            criterionSchema,
          )
          .default(DEFAULT_CRITERIA),
      })
      .default({ concurrency: 3, max_tokens: 400, criteria: DEFAULT_CRITERIA }),
    stop: z
      .strictObject({
        max_runtime_seconds: positiveNumber
          .default(600)
          .describe('Stop once the run has been active this long.'),
        max_total_output_tokens: positiveInteger
          .default(8000)
          .describe('Stop once all model calls together have generated this many tokens.'),
        judge_early_stop: z
          .boolean()
          .default(false)
          .describe('Stop when most judges report no new substantive arguments for 2 consecutive rounds.'),
      })
      .default({ max_runtime_seconds: 600, max_total_output_tokens: 8000, judge_early_stop: false }),
    reliability: z
      .strictObject({
        attempts: positiveInteger.default(3).describe('Tries per model call for retryable failures.'),
        backoff_ms: nonNegativeInteger
          .default(1000)
          .describe('First retry delay; doubles each retry, with jitter.'),
        max_backoff_ms: nonNegativeInteger.default(15000),
        request_timeout_seconds: positiveNumber.default(600).describe('Upper bound for one model call.'),
        max_consecutive_failures: positiveInteger
          .default(3)
          .describe(
            'Failed steps in a row (degraded turns, failed judges or summaries) before the run fails.',
          ),
      })
      .default({
        attempts: 3,
        backoff_ms: 1000,
        max_backoff_ms: 15000,
        request_timeout_seconds: 600,
        max_consecutive_failures: 3,
      }),
    context: z
      .strictObject({
        margin_tokens: nonNegativeInteger.default(256).describe('Tokens kept free besides the answer.'),
        summary_max_tokens: positiveInteger.default(512).describe('Token cap for one running summary.'),
        summariser_model: z
          .string()
          .optional()
          .describe("Model that writes summaries; default: the X agent's."),
      })
      .default({ margin_tokens: 256, summary_max_tokens: 512 }),
  })
  .describe('An Agora knockout debate scenario.');

export type ScenarioInput = z.input<typeof scenarioSchema>;
export type ScenarioFile = z.output<typeof scenarioSchema>;
export type AgentConfig = z.output<typeof agentSchema>;
export type Criterion = z.output<typeof criterionSchema>;
export type Position = z.output<typeof positionSchema>;
