/**
 * `agora run <scenario.yaml>` (also `npm run debate -- <scenario.yaml>`): one debate. Without a
 * file, `--format NAME --topic "..."` runs that format with its defaults.
 */
import path from 'node:path';
import { defaultScenario } from '../../config/default-scenario.js';
import { loadScenario } from '../../config/load-scenario.js';
import type { Scenario } from '../../config/scenario.js';
import { FORMAT_NAMES, type FormatName } from '../../config/scenario-schema.js';
import { UsageError } from '../../core/errors.js';
import { resolveOllamaHost } from '../../llm/ollama-host.js';
import type { CliIo } from '../io.js';
import { integerFlag, numberFlag, parseCommand } from '../parse.js';
import { type DebateFlags, runDebate } from '../run-debate.js';
import { applyOverrides } from '../scenario-overrides.js';

export const debateOptions = {
  seed: { type: 'string' },
  rounds: { type: 'string' },
  topic: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  quiet: { type: 'boolean' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  timeout: { type: 'string' },
} as const;

export type DebateValues = {
  [key in keyof typeof debateOptions]?: (typeof debateOptions)[key]['type'] extends 'boolean'
    ? boolean
    : string;
};

/** The scenario a `run` or `demo` command means: a file, or a format's defaults with a topic. */
export async function scenarioFromArguments(
  command: string,
  positionals: string[],
  values: DebateValues,
  io: CliIo,
  fallbackFile?: string,
): Promise<Scenario> {
  if (positionals.length > 1) throw new UsageError(`${command}: name one scenario file`);
  const file = positionals[0] ?? (values.format ? undefined : fallbackFile);
  let scenario: Scenario;
  if (file) {
    scenario = await loadScenario(path.resolve(io.cwd, file));
    if (values.format && values.format !== scenario.format) {
      throw new UsageError(
        `--format ${values.format} does not match the scenario's format (${scenario.format})`,
      );
    }
  } else {
    if (!values.format) {
      throw new UsageError(
        `${command}: name a scenario file (e.g. \`npm run debate -- scenarios/abortion.yaml\`), or give --format and --topic`,
      );
    }
    if (!(FORMAT_NAMES as string[]).includes(values.format)) {
      throw new UsageError(`--format must be one of ${FORMAT_NAMES.join(', ')}, got "${values.format}"`);
    }
    if (values.topic === undefined)
      throw new UsageError(`--format ${values.format} needs --topic "the motion"`);
    if (values.topic.trim() === '') throw new UsageError('--topic must not be empty or only spaces');
    scenario = await defaultScenario(values.format as FormatName, values.topic.trim(), io.cwd);
  }
  return applyOverrides(scenario, {
    seed: integerFlag('seed', values.seed),
    rounds: integerFlag('rounds', values.rounds, 1),
    topic: values.topic,
  });
}

export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand('run', argv, { ...debateOptions, host: { type: 'string' } });
  const scenario = await scenarioFromArguments('run', positionals, values, io);
  for (const warning of scenario.warnings) io.stderr.write(`warning: ${warning.path} ${warning.message}\n`);
  if (values.topic !== undefined && !values.json) io.stdout.write(`Topic accepted: "${scenario.topic}"\n`);
  const host = resolveOllamaHost({
    flag: values.host,
    scenario: scenario.ollama.host,
    env: io.env.OLLAMA_HOST,
  });
  return runDebate(scenario, host, debateFlags(values, io), io);
}

/** The flags every debate-running command shares, read once. */
export function debateFlags(values: DebateValues, io: CliIo): DebateFlags {
  const timeoutSeconds = numberFlag('timeout', values.timeout, 1);
  return {
    out: path.resolve(io.cwd, values.out ?? 'transcripts'),
    quiet: values.quiet ?? false,
    json: values.json ?? false,
    verbose: values.verbose ?? false,
    ...(timeoutSeconds ? { requestTimeoutMs: timeoutSeconds * 1000 } : {}),
  };
}
