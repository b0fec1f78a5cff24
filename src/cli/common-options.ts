/** Options several commands share, with the same words in every command's help. */
import type { OptionSpec } from './command-definition.js';

export const HOST = {
  value: 'URL',
  help: 'Ollama address (default: scenario, then OLLAMA_HOST, then http://127.0.0.1:11434)',
} as const satisfies OptionSpec;
export const OUT = {
  value: 'DIR',
  help: 'the one folder for runs (default transcripts/, councils records/debates/)',
} as const satisfies OptionSpec;
export const JSON_OUTPUT = { help: 'machine-readable output' } as const satisfies OptionSpec;
export const CSV_OUTPUT = { help: 'comma-separated output' } as const satisfies OptionSpec;
export const DATABASE = {
  value: 'URL',
  help: 'the shared Postgres store (default: AGORA_DATABASE_URL), instead of the runs folder',
} as const satisfies OptionSpec;
export const SHARED_DATABASE = {
  value: 'URL',
  help: 'the shared Postgres store (default: AGORA_DATABASE_URL)',
} as const satisfies OptionSpec;
export const TIMEOUT = {
  value: 'SECONDS',
  help: 'upper bound for one model call, 1 to 86400',
} as const satisfies OptionSpec;
/** Set by `serve --demo` on the workers it starts: the host it passes is its simulator. */
export const SIMULATED = {
  help: 'the host is the built-in simulator',
  hidden: true,
} as const satisfies OptionSpec;

/** What `run` and `demo` share: how the debate is set up, shown and kept. */
/** Where a person at the podium speaks from. */
export const SPEAK_FROM = {
  value: 'WHERE',
  help: "with a person's seat: terminal (typed or piped, the default) or viewer (the run page's writing box)",
} as const satisfies OptionSpec;

export const DEBATE_OPTIONS = {
  seed: {
    value: 'N',
    help: 'seed for every random choice, any whole number, negative too (overrides the scenario)',
  },
  rounds: { value: 'N', help: 'number of rounds, 1 to 50 (overrides the scenario)' },
  topic: {
    value: '"TEXT"',
    help: "debate another motion with the same agents and settings (at most 500 characters; a critique problem 4000); the old topic's positions, personas and background are left out, and stderr says what was replaced",
  },
  positions: { value: '"X,Y"', help: "with --topic: the two positions' labels (default: For, Against)" },
  format: {
    value: 'NAME',
    help: 'knockout, formal, duel, critique, council or truth; with --topic, no scenario file is needed',
  },
  'problem-file': { value: 'FILE', help: 'the problem (topic) from a text file' },
  questions: {
    value: 'N|FILE',
    help: 'truth: how many questions to generate from the seed, or a YAML/JSONL file of questions',
  },
  out: OUT,
  quiet: { help: 'no live transcript; only the final tables' },
  json: { help: 'print a machine-readable summary on stdout and nothing else' },
  verbose: {
    help: "debug logs on stderr (always written to <run dir>/run.log); a critique also lists where each agent's prompt came from",
  },
  timeout: { value: 'SECONDS', help: 'upper bound for one model call, 1 to 86400 (default 600)' },
  agents: { value: 'ROLES', help: 'critique: keep only agents with these roles (architect,performance)' },
  output: {
    value: 'FILE',
    help: 'also write the result: the transcript for .json, else the solution or Markdown',
  },
  models: { value: 'ROLE=MODEL', help: 'models for roles, e.g. x=llama3,y=mistral or all=llama3' },
  'speak-from': SPEAK_FROM,
  human: {
    value: 'SEAT',
    help: "debate in person: take a debater's seat (knockout: x or a Position Y agent's name; duel: a, b; formal: affirmative, negative; or the debater's name) and type or pipe your statements; see docs/podium.md",
  },
  record: {
    value: 'DIR',
    help: 'record every model call into a cassette folder (new or empty), see docs/cassettes.md',
  },
} as const satisfies Record<string, OptionSpec>;
