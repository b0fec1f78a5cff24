/**
 * `agora run <scenario.yaml>` (also `npm run debate -- <scenario.yaml>`): one debate. Without a
 * file, `--format NAME --topic "..."` runs that format with its defaults.
 */
import path from 'node:path';
import { closestName } from '../../config/closest-name.js';
import { defaultScenario } from '../../config/default-scenario.js';
import { applyLineup, parseLineup } from '../../config/lineup.js';
import { loadScenario } from '../../config/load-scenario.js';
import { seatPerson } from '../../config/person-seats.js';
import { readTextFile } from '../../config/read-text-file.js';
import { BUILT_IN_ROLE_PROMPTS } from '../../config/role-prompts.js';
import type { Scenario } from '../../config/scenario.js';
import { applyOverrides, checkTopicFlag, parsePositions } from '../../config/scenario-overrides.js';
import { FORMAT_NAMES, type FormatName } from '../../config/scenario-schema.js';
import { ConfigError, formatConfigIssue, UsageError } from '../../core/errors.js';
import { applyQuestionsOption, TRUTH_TOPIC } from '../../formats/truth/questions-option.js';
import type { SessionServers } from '../../session/debate-session.js';
import { lineupModels } from '../../session/given-models.js';
import { SESSION_LEASE_SECONDS, sessionOwner } from '../../session/shared-runs.js';
import { isRunId } from '../../store/run-id.js';
import { type RunPlaces, runPlaces } from '../../store/run-places.js';
import {
  type CommandInput,
  defineCommand,
  type OptionSpecs,
  type OptionValues,
} from '../command-definition.js';
import { DEBATE_OPTIONS, HOST, SIMULATED } from '../common-options.js';
import { openDatabaseOption } from '../database-option.js';
import { debateOnTerminal, type TerminalFlags } from '../debate-on-terminal.js';
import { integerFlag, ROUNDS_RANGE, timeoutFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { ollamaHostFor } from '../ollama-address.js';
import { checkedOutputFile } from '../output-file.js';

export type DebateValues = OptionValues<typeof DEBATE_OPTIONS>;

/** The scenario a `run` or `demo` command means: a file, or a format's defaults with a topic. */
export async function scenarioFromArguments(
  positionals: string[],
  values: DebateValues,
  io: CliIo,
  fallbackFile?: string,
): Promise<Scenario> {
  if (positionals.length > 1) throw new UsageError('name one scenario file');
  if (values['problem-file'] && values.topic !== undefined) {
    throw new UsageError('give the problem with --topic or with --problem-file, not both');
  }
  const problem = values['problem-file'] ? await readProblemFile(values['problem-file'], io) : undefined;
  const topic = problem ?? values.topic;
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
        `name a scenario file (e.g. \`npm run debate -- scenarios/abortion.yaml\`), or give --format and --topic`,
      );
    }
    if (!(FORMAT_NAMES as string[]).includes(values.format)) {
      throw new UsageError(`--format must be one of ${FORMAT_NAMES.join(', ')}, got "${values.format}"`);
    }
    if (topic === undefined && values.format !== 'truth') {
      throw new UsageError(`--format ${values.format} needs --topic "the motion" (or --problem-file)`);
    }
    if (topic !== undefined) checkTopicFlag(topic, values.format);
    scenario = await defaultScenario(values.format as FormatName, (topic ?? TRUTH_TOPIC).trim(), io.cwd);
  }
  const overridden = applyLineup(
    applyOverrides(
      scenario,
      {
        seed: integerFlag('seed', values.seed),
        rounds: integerFlag('rounds', values.rounds, ROUNDS_RANGE.min, ROUNDS_RANGE.max),
        topic,
        positions: values.positions === undefined ? undefined : parsePositions(values.positions),
      },
      (notice) => io.stderr.write(`${notice}\n`),
    ),
    values.models ? parseLineup(values.models) : null,
  );
  const asked = await applyQuestionsOption(overridden, values.questions, io.cwd);
  const filtered = values.agents ? filterAgents(asked, values.agents, io) : asked;
  return values.human === undefined ? filtered : seatPerson(filtered, values.human);
}

/** A problem statement is a page or two of text; a larger one could not fit a model's prompt. */
const MAX_PROBLEM_FILE_BYTES = 256 * 1024;

/**
 * `--problem-file`: the problem (topic) from a file. A missing, folder or empty file is a usage
 * mistake; a device, a pipe, binary data or an oversized file is refused as configuration.
 */
async function readProblemFile(file: string, io: CliIo): Promise<string> {
  const result = await readTextFile(path.resolve(io.cwd, file), MAX_PROBLEM_FILE_BYTES);
  if ('refusal' in result) {
    const { reason, message } = result.refusal;
    if (reason === 'missing') throw new UsageError(`--problem-file: ${file} does not exist`);
    if (reason === 'folder') throw new UsageError(`--problem-file: ${file} is a folder; name a text file`);
    const limit = reason === 'too-large' ? ' for a problem file' : '';
    throw new ConfigError([
      { file, path: '', message: `${message}${limit}; --problem-file takes a text file of the problem` },
    ]);
  }
  const text = result.text.trim();
  if (text === '') throw new UsageError(`--problem-file: ${file} is empty`);
  return text;
}

/** `--agents architect,performance`: keeps the critique agents with those roles. */
function filterAgents(scenario: Scenario, roles: string, io: CliIo): Scenario {
  if (scenario.format !== 'critique') throw new UsageError('--agents filters the roles of a critique debate');
  const wanted = roles
    .split(',')
    .map((role) => role.trim().toLowerCase())
    .filter(Boolean);
  const known = [...new Set(scenario.agents.map((agent) => agent.role.toLowerCase()))];
  const unknown = wanted.filter((role) => !known.includes(role));
  const kept = scenario.agents.filter((agent) => wanted.includes(agent.role.toLowerCase()));
  if (unknown.length > 0 && kept.length > 0) {
    const meant = unknown.map((role) => closestName(role, known)).filter((role) => role !== undefined);
    throw new UsageError(
      `--agents names ${unknown.length === 1 ? 'a role' : 'roles'} no agent of ${scenario.file} has: ${unknown.join(', ')}${meant.length > 0 ? ` (did you mean ${meant.join(', ')}?)` : ''}; its agents' roles are ${known.join(', ')}`,
    );
  }
  if (kept.length === 1) {
    io.stderr.write(
      `warning: --agents keeps one agent (${kept[0]?.name}, ${kept[0]?.role}): no other agent critiques its proposal, so the debate is that agent's proposal and revisions alone\n`,
    );
  }
  if (kept.length > 0) return { ...scenario, agents: kept };
  io.stderr.write(
    `warning: no agent has the roles ${wanted.join(', ')}; using the default architect and performance agents\n`,
  );
  const defaults = ['architect', 'performance'].map((role, index) => ({
    name: role === 'architect' ? 'Architect' : 'Performance',
    role,
    model: scenario.agents[index % scenario.agents.length]?.model ?? 'llama3',
    fallback_models: [],
    system_prompt: BUILT_IN_ROLE_PROMPTS[role] ?? '',
    prompt_source: 'built-in',
  }));
  return { ...scenario, agents: defaults };
}

const RUN_OPTIONS = {
  host: HOST,
  ...DEBATE_OPTIONS,
  'run-id': { value: 'ID', help: "the run's folder name instead of one made from time, topic and seed" },
  database: {
    value: 'URL',
    help: 'also keep the run in the shared Postgres store, step by step (default: AGORA_DATABASE_URL)',
  },
  simulated: SIMULATED,
} as const satisfies OptionSpecs;

export const runCommand = defineCommand({
  name: 'run',
  aliases: ['debate'],
  usage: '<scenario.yaml> [options]     (npm run debate -- <scenario.yaml> [options])',
  moreUsage: ['--format NAME --topic "TEXT" [options]'],
  listing: {
    term: 'run <scenario.yaml>',
    text: ['run a debate against Ollama (npm run debate -- <file>)'],
  },
  description:
    'Runs one debate against Ollama. Ctrl-C stops after the step in flight; a second Ctrl-C aborts it.',
  options: RUN_OPTIONS,
  run: runDebate,
});

async function runDebate(
  { values, positionals }: CommandInput<typeof RUN_OPTIONS>,
  io: CliIo,
): Promise<number> {
  const scenario = await scenarioFromArguments(positionals, values, io);
  // Checked before the first model call: a bad --output path is refused now, not after the debate.
  const flags = terminalFlags(values, io);
  // As `validate` words them: the file and line, the field, then what it means.
  for (const warning of scenario.warnings) io.stderr.write(`warning: ${formatConfigIssue(warning)}\n`);
  // With --quiet, stdout may be meant for the answer alone (a critique's solution).
  if (values.topic !== undefined && !values.json)
    (values.quiet ? io.stderr : io.stdout).write(`Topic accepted: "${scenario.topic}"\n`);
  const host = ollamaHostFor(
    { flag: values.host, scenario: scenario.ollama.host, env: io.env.OLLAMA_HOST },
    io,
  );
  const runId = values['run-id'];
  if (runId !== undefined && !isRunId(runId)) {
    throw new UsageError(
      `--run-id must be letters, digits, dots, dashes and underscores (at most 120), starting with a letter or digit; got "${runId}"`,
    );
  }
  const database = await openDatabaseOption(values.database, io);
  try {
    return await debateOnTerminal(
      {
        scenario,
        servers: debateServers(host, values, io),
        store: {
          ...storeFolders(values, io),
          ...(runId ? { runId } : {}),
          ...(database
            ? { shared: { database, owner: sessionOwner(), leaseSeconds: SESSION_LEASE_SECONDS } }
            : {}),
        },
        ...(values.simulated ? { simulated: true } : {}),
        ...(values.models
          ? {
              givenModels: {
                by: `--models ${values.models}`,
                models: lineupModels(parseLineup(values.models)),
              },
            }
          : {}),
        ...recording(values, io),
      },
      flags,
      io,
    );
  } finally {
    await database?.close();
  }
}

/**
 * Where runs are written: --out for every run, else transcripts/, and a council's records in
 * records/debates/ (seed 003).
 */
export function storeFolders(values: { out?: string }, io: CliIo): { out: string; places: RunPlaces } {
  const places = runPlaces(io.cwd, values.out);
  return { out: places.runs, places };
}

/** The model servers a debate of this command talks to: the host, the environment, --timeout. */
export function debateServers(host: string, values: { timeout?: string }, io: CliIo): SessionServers {
  const requestTimeoutMs = timeoutFlag(values.timeout);
  return { host, env: io.env, ...(requestTimeoutMs ? { requestTimeoutMs } : {}) };
}

/** `--record DIR`: every model call of the run into a cassette folder. */
export function recording(values: { record?: string }, io: CliIo): { record?: string } {
  return values.record ? { record: path.resolve(io.cwd, values.record) } : {};
}

/** How the terminal shows a debate, from the flags every debate-running command shares. */
export function terminalFlags(
  values: Pick<DebateValues, 'quiet' | 'json' | 'verbose' | 'output' | 'speak-from'>,
  io: CliIo,
): TerminalFlags {
  const from = values['speak-from'];
  if (from !== undefined && from !== 'terminal' && from !== 'viewer') {
    throw new UsageError(`--speak-from must be terminal or viewer, got "${from}"`);
  }
  return {
    ...(from ? { speakFrom: from } : {}),
    quiet: values.quiet ?? false,
    json: values.json ?? false,
    verbose: values.verbose ?? false,
    ...(values.output ? { output: checkedOutputFile(values.output, io.cwd) } : {}),
  };
}
