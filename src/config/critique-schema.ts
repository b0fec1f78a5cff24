/**
 * The critique-and-refine format (seed 002): agents with roles propose, critique each other and
 * refine over N rounds; a judge synthesises a solution, optionally stopping early once confident.
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
import { PROBLEM_MAX_CHARS } from './topic-limit.js';

const roleAgentSchema = z.strictObject({
  name: nonBlank('the name shown in transcripts'),
  role: nonBlank('architect, performance, or any role of your own'),
  model: nonBlank('an Ollama model name, e.g. llama3'),
  description: z
    .string()
    .optional()
    .describe('What this role cares about; used when there is no prompt file.'),
  prompt_file: z.string().optional().describe('A system prompt file, relative to the scenario.'),
  fallback_models: z.array(nonBlank('an Ollama model name')).default([]),
  think: thinkField,
  enabled: z
    .boolean()
    .optional()
    .describe('false leaves this agent out of the debate (it is kept in the file); default true.'),
  /** Filled in when the scenario is loaded: the prompt used and where it came from. */
  system_prompt: z.string().optional(),
  prompt_source: z.string().optional(),
});

/** The agents of a critique that names none, or whose agents are all disabled (seed 002). */
export const DEFAULT_CRITIQUE_AGENTS: ReadonlyArray<{ name: string; role: string; model: string }> = [
  { name: 'Architect', role: 'architect', model: 'llama3' },
  { name: 'Performance', role: 'performance', model: 'mistral' },
];

export const critiqueSchema = z
  .strictObject({
    ...commonFields(
      'the problem to solve, e.g. "Design a rate limiter for a public API"',
      STOP_DEFAULTS,
      PROBLEM_MAX_CHARS,
    ),
    format: z.literal('critique', { error: 'must be "critique"' }),
    agents: z
      .array(roleAgentSchema)
      .min(1, { error: 'needs at least one agent' })
      .default(() => DEFAULT_CRITIQUE_AGENTS.map((agent) => ({ ...agent, fallback_models: [] }))),
    judge: z
      .strictObject({
        name: nonBlank('the judge name').default('Judge'),
        model: nonBlank('an Ollama model name'),
        prompt_file: z
          .string()
          .optional()
          .describe("The judge's instructions from a file, relative to the scenario, added to its task."),
        /** Filled in when the scenario is loaded: the prompt file's text and where it came from. */
        system_prompt: z.string().optional(),
        prompt_source: z.string().optional(),
      })
      .default({ name: 'Judge', model: 'llama3' }),
    rounds: positiveInteger.default(3),
    include_full_history: z.boolean().default(false).describe('Later rounds see every earlier contribution.'),
    confidence_threshold: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .describe(
        'Stop once the judge is at least this confident (0-100); the judge then synthesises every round.',
      ),
    concurrency: positiveInteger.default(4).describe('Contributions generated at the same time.'),
    max_tokens: positiveInteger.default(800),
    judge_max_tokens: positiveInteger.default(1000),
    model_options: z
      .strictObject({
        temperature: temperatureSchema.default(0.5),
        context_window: positiveInteger.default(8192),
      })
      .default({ temperature: 0.5, context_window: 8192 }),
  })
  .describe('An Agora critique-and-refine scenario.');

export type CritiqueFile = z.output<typeof critiqueSchema>;
export type RoleAgent = z.output<typeof roleAgentSchema>;
