/** Pieces every format's scenario schema shares: number types, criteria, background, stop, reliability. */
import { z } from 'zod';
import { timeoutSecondsSchema } from './timeout-seconds.js';
import { TOPIC_MAX_CHARS } from './topic-limit.js';

export const positiveNumber = z
  .number({ error: 'must be a number' })
  .positive({ error: 'must be greater than 0' });
export const positiveInteger = z
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .positive({ error: 'must be at least 1' });
export const nonNegativeInteger = z
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .min(0, { error: 'must be 0 or more' });
export const nonBlank = (what: string) =>
  z.string({ error: `must be text (${what})` }).refine((value) => value.trim().length > 0, {
    error: `must not be empty or only spaces (${what})`,
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

export const criteriaSchema = (defaults: Record<string, z.input<typeof criterionSchema>>) =>
  z
    .record(
      z.string().regex(/^[a-z][a-z0-9_]*$/, { error: 'criterion names are snake_case' }),
      criterionSchema,
    )
    .default(defaults);

export const temperatureSchema = z
  .number({ error: 'must be a number' })
  .min(0, { error: 'must be 0 or more' })
  .max(2, { error: 'must be at most 2' });

/**
 * Stop conditions besides each format's own rounds. A format without a budget in its seed has none
 * by default (null); the duel sets seed 000's 600 s and 8000 tokens.
 */
export interface StopDefaults {
  max_runtime_seconds: number | null;
  max_total_output_tokens: number | null;
  judge_early_stop: boolean;
}

export const STOP_DEFAULTS: StopDefaults = {
  max_runtime_seconds: null,
  max_total_output_tokens: null,
  judge_early_stop: false,
};

/** The seed a batch starts from for a scenario that names none, so that re-running it repeats it. */
export const BATCH_BASE_SEED = 42;

/** Fields every scenario has, whatever its format. */
export function stopSchema(defaults: StopDefaults) {
  return z
    .strictObject({
      max_runtime_seconds: positiveNumber
        .nullable()
        .default(defaults.max_runtime_seconds)
        .describe('Stop once the run has been active this long (null: no limit).'),
      max_total_output_tokens: positiveInteger
        .nullable()
        .default(defaults.max_total_output_tokens)
        .describe('Stop once all model calls together have generated this many tokens (null: no limit).'),
      judge_early_stop: z
        .boolean()
        .default(defaults.judge_early_stop)
        .describe('Stop when most judges report no new substantive arguments for 2 consecutive rounds.'),
    })
    .default(defaults);
}

/** One model server besides the default Ollama; its `models` are sent there, every other to Ollama. */
export const providerSchema = z.strictObject({
  type: z
    .enum(['ollama', 'openai'], { error: 'must be "ollama" or "openai" (an OpenAI-compatible server)' })
    .describe('ollama: the native Ollama API; openai: llama-server, vLLM, SGLang, LM Studio and the like.'),
  base_url: z
    .string({ error: 'must be a URL such as http://127.0.0.1:8080/v1' })
    .refine((value) => /^https?:\/\//i.test(value.trim()) && URL.canParse(value.trim()), {
      error: 'must be an http:// or https:// URL, e.g. http://127.0.0.1:8080/v1',
    })
    .describe(
      'Where the server listens; for openai usually ending in /v1. AGORA_PROVIDER_<NAME>_URL overrides it.',
    ),
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
      error: 'must be the NAME of an environment variable, e.g. LLM_API_KEY',
    })
    .optional()
    .describe('Name of the environment variable holding the API key (sent as a bearer token, never stored).'),
  models: z
    .array(nonBlank('a model name as this server knows it'))
    .min(1, { error: 'list the models this server serves' })
    .describe('The models to send to this server; each model name belongs to one server.'),
});

export function commonFields(
  topicHint: string,
  stopDefaults: StopDefaults = STOP_DEFAULTS,
  topicMaxChars = TOPIC_MAX_CHARS,
) {
  return {
    $schema: z.string().optional().describe('Path of the JSON Schema, for editors.'),
    title: z.string().optional(),
    topic: z
      .string({ error: `must be text (${topicHint})` })
      .max(topicMaxChars, {
        error: `is longer than ${topicMaxChars} characters, the limit for a topic; keep it to the question itself and put longer material in background.knowledge or background.files`,
      })
      .refine((value) => value.trim().length > 0, {
        error: `must not be empty or only spaces (${topicHint})`,
      })
      .describe(`${topicHint[0]?.toUpperCase()}${topicHint.slice(1)}; at most ${topicMaxChars} characters.`),
    // No default here: a scenario without a seed gets a fresh one per run (see load-scenario.ts).
    seed: z
      .number({ error: 'must be a whole number' })
      .int({ error: 'must be a whole number' })
      .optional()
      .describe(
        'Seed for every random choice. Omit it to draw a fresh seed for each run (a batch then uses 42 and up).',
      ),
    ollama: z
      .strictObject({
        host: z.string().optional().describe('Ollama address: host, host:port or http://host:port.'),
      })
      .default({}),
    providers: z
      .record(
        z.string().regex(/^[a-z][a-z0-9_]*$/, { error: 'provider names are snake_case, e.g. lan_gpu' }),
        providerSchema,
      )
      .default({})
      .describe('Model servers besides Ollama, by name; each serves the models it lists.'),
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
    thinking_budget: positiveInteger
      .max(32768, { error: 'must be at most 32768' })
      .default(1500)
      .describe(
        "Tokens a thinking model (think: true) may spend thinking before each answer, on top of the answer's own cap.",
      ),
    stop: stopSchema(stopDefaults),
    reliability: z
      .strictObject({
        attempts: positiveInteger
          .default(3)
          .describe('Tries per model call for retryable failures; a call that timed out is tried twice.'),
        backoff_ms: nonNegativeInteger
          .default(1000)
          .describe('First retry delay; doubles each retry, with jitter.'),
        max_backoff_ms: nonNegativeInteger.default(15000),
        request_timeout_seconds: timeoutSecondsSchema
          .default(600)
          .describe('Upper bound for one model call, in seconds (1 to 86400).'),
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
  };
}

export type Criterion = z.output<typeof criterionSchema>;

/** Lets a thinking model (qwen3, deepseek-r1) think before it answers; its thinking is never kept. */
/** `human: true`: a person takes the seat's statements (see docs/podium.md). */
export const humanField = (description: string) => z.boolean().optional().describe(description);

/** A judge's seat is never a person's: `human: true` there is refused with the seats that can be. */
export const judgeNotHuman = z
  .literal(false, {
    error:
      "a judge is always a model; a person can take a debater's seat instead (human: true under debaters.a or debaters.b)",
  })
  .optional()
  .describe('A judge is always a model: a person can take a debater’s seat, not the judge’s.');

export const thinkField = z
  .boolean()
  .optional()
  .describe('Let a thinking model (qwen3, deepseek-r1) think before it answers; default false.');
