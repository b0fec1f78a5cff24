/**
 * Reads a scenario file: size and encoding checks, YAML with positions, the strict schema, the
 * cross-field rules and the context files. Reports every problem at once as a ConfigError.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { checkBackgroundFits } from './background-fit.js';
import { closestName } from './closest-name.js';
import { DEFAULT_CRITIQUE_AGENTS } from './critique-schema.js';
import { formatFieldPath } from './field-path.js';
import { passagesThatDoNotFit } from './passage-fit.js';
import { readQuestionFile } from './question-file.js';
import { readTextFile } from './read-text-file.js';
import { resolveRolePrompt } from './role-prompts.js';
import type { ContextFile, Scenario } from './scenario.js';
import { checkScenarioRules } from './scenario-rules.js';
import { FORMAT_NAMES, FORMAT_SCHEMAS, type FormatName, type ScenarioFile } from './scenario-schema.js';
import { allowedKeysAt } from './schema-lookup.js';
import { BATCH_BASE_SEED } from './schema-parts.js';
import { parseYamlSource, type YamlSource } from './yaml-source.js';

/** Scenario files above this size are refused: a scenario is a page of settings, not a data set. */
export const MAX_SCENARIO_BYTES = 1024 * 1024;
/** One context file may be at most this large; larger ones would not fit a model's context anyway. */
export const MAX_CONTEXT_FILE_BYTES = 256 * 1024;
/** A role's prompt file: a page of instructions, so the context file limit is plenty. */
const MAX_PROMPT_FILE_BYTES = MAX_CONTEXT_FILE_BYTES;

export async function loadScenario(file: string): Promise<Scenario> {
  const absolute = path.resolve(file);
  const text = await readScenarioText(absolute, file);
  return parseScenario(text, absolute, file);
}

async function readScenarioText(absolute: string, shown: string): Promise<string> {
  const result = await readTextFile(absolute, MAX_SCENARIO_BYTES);
  if ('text' in result) return result.text;
  const { reason, message } = result.refusal;
  const explained: Record<typeof reason, string> = {
    missing: 'file not found; check the path (scenarios live in scenarios/, e.g. scenarios/abortion.yaml)',
    folder: 'is a folder, not a scenario file; name a .yaml file inside it',
    'not-regular': `${message}; a scenario is a YAML file on disk`,
    'too-large': `${message} for a scenario; put long background material in context files`,
    unreadable: message,
    binary: 'is not a text file (it contains binary data); a scenario is a YAML file',
    encoding: message,
  };
  throw new ConfigError([{ file: shown, path: '', message: explained[reason] }]);
}

/** Validates scenario text; `absolute` anchors context files, `shown` is the name used in messages. */
export async function parseScenario(text: string, absolute: string, shown = absolute): Promise<Scenario> {
  const source = parseYamlSource(text);
  if (source.nestingError) throw new ConfigError([{ file: shown, path: '', ...source.nestingError }]);
  if (source.syntaxErrors.length > 0) {
    throw new ConfigError(
      source.syntaxErrors.map((error) => ({
        file: shown,
        line: error.line,
        column: error.column,
        path: '',
        message: `YAML syntax error: ${error.message}`,
      })),
    );
  }
  if (source.expansionError) {
    throw new ConfigError([{ file: shown, path: '', ...source.expansionError }]);
  }
  if (source.data === null || typeof source.data !== 'object' || Array.isArray(source.data)) {
    throw new ConfigError([
      {
        file: shown,
        line: 1,
        column: 1,
        path: '',
        message:
          'is not a scenario: expected a YAML mapping with fields such as topic, positions and agents (see scenarios/abortion.yaml)',
      },
    ]);
  }

  const format = (source.data as Record<string, unknown>).format ?? 'knockout';
  if (typeof format !== 'string' || !Object.hasOwn(FORMAT_SCHEMAS, format)) {
    throw new ConfigError([
      {
        file: shown,
        ...source.positionOf(['format']),
        path: 'format',
        message: `unknown format ${JSON.stringify(format)}; allowed: ${FORMAT_NAMES.join(', ')}`,
      },
    ]);
  }
  const schema = FORMAT_SCHEMAS[format as FormatName];
  const parsed = schema.safeParse(source.data);
  if (!parsed.success) throw new ConfigError(zodIssues(parsed.error.issues, source, shown, schema));

  const rules = checkScenarioRules(parsed.data, source.data);
  const toIssue = (finding: { path: Array<string | number>; message: string }): ConfigIssue => ({
    file: shown,
    ...source.positionOf(finding.path),
    path: formatFieldPath(finding.path),
    message: finding.message,
  });
  const problems = rules.problems.map(toIssue);
  const { files, issues: fileIssues } = await readContextFiles(parsed.data, absolute, shown, source);
  problems.push(...fileIssues);
  const tooLong = checkBackgroundFits(parsed.data, files);
  if (tooLong) problems.push(toIssue(tooLong));
  if (problems.length > 0) throw new ConfigError(problems);

  const warnings = rules.warnings.map(toIssue);
  let data: ScenarioFile = parsed.data;
  if (data.format === 'critique') {
    // Agents with `enabled: false` stay in the file but not in the debate (seed 002); their
    // prompt files are not read. With none left, the default agents debate, as the seed has it.
    let enabled = data.agents
      .map((agent, index) => ({ agent, index }))
      .filter(({ agent }) => agent.enabled !== false);
    if (enabled.length === 0) {
      warnings.push(
        toIssue({
          path: ['agents'],
          message: `every agent has enabled: false, so the default ${DEFAULT_CRITIQUE_AGENTS.map((agent) => agent.role).join(' and ')} agents debate; enable an agent to choose who debates`,
        }),
      );
      enabled = DEFAULT_CRITIQUE_AGENTS.map((agent) => ({
        agent: { ...agent, fallback_models: [] },
        index: -1,
      }));
    }
    // Prompt files are read now, so the run's log holds the prompts exactly as used.
    const agents = [];
    for (const { agent, index } of enabled) {
      const fileText = agent.prompt_file ? await readInsideFolder(absolute, agent.prompt_file) : undefined;
      const filePath = agent.prompt_file && path.resolve(path.dirname(absolute), agent.prompt_file);
      const prompt = resolveRolePrompt(agent, fileText, filePath);
      for (const { field, message } of prompt.warnings)
        warnings.push(toIssue({ path: index === -1 ? ['agents'] : ['agents', index, field], message }));
      agents.push({ ...agent, system_prompt: prompt.text, prompt_source: prompt.source });
    }
    data = { ...data, agents, judge: await judgeWithPrompt(data.judge, absolute, warnings, toIssue) };
  }
  if (data.format === 'truth' && data.questions_file) {
    const shownFile = path.join(path.dirname(shown), data.questions_file);
    const questions = await readQuestionFile(
      path.resolve(path.dirname(absolute), data.questions_file),
      shownFile,
    );
    data = { ...data, questions };
  }
  if (data.format === 'truth' && Array.isArray(data.questions)) {
    const issues = passagesThatDoNotFit(
      data.questions.map((item, at) => ({ ...item, id: item.id ?? `q${at + 1}` })),
      {
        contextWindow: data.model_options.context_window,
        debaterMaxTokens: data.debater_max_tokens,
        maxRounds: data.max_rounds,
      },
      data.questions_file ? path.join(path.dirname(shown), data.questions_file) : shown,
    );
    if (issues.length > 0) throw new ConfigError(issues);
  }
  const seed = data.seed === undefined ? { seed: BATCH_BASE_SEED, randomSeed: true } : { seed: data.seed };
  return { ...data, ...seed, file: absolute, contextFiles: files, warnings } as Scenario;
}

function zodIssues(
  issues: z.core.$ZodIssue[],
  source: YamlSource,
  shown: string,
  schema: z.core.$ZodType,
): ConfigIssue[] {
  const result: ConfigIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const allowed = allowedKeysAt(schema, issue.path).filter((key) => key !== '$schema');
      for (const key of issue.keys) {
        result.push({
          file: shown,
          ...source.positionOf(issue.path, { key }),
          path: formatFieldPath([...issue.path, key]),
          message: `unknown field "${key}"${didYouMean(closestName(key, allowed))}; allowed here: ${allowed.join(', ')}`,
        });
      }
      continue;
    }
    const value = valueAt(source.data, issue.path);
    const message =
      value === undefined && issue.code === 'invalid_type'
        ? 'is required but missing'
        : describeIssue(issue, value);
    result.push({
      file: shown,
      ...source.positionOf(issue.path),
      path: formatFieldPath(issue.path),
      message,
    });
  }
  return result;
}

function didYouMean(name: string | undefined): string {
  return name === undefined ? '' : ` (did you mean "${name}"?)`;
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  const got = value === undefined ? '' : ` (got ${JSON.stringify(value)?.slice(0, 60)})`;
  return `${issue.message}${got}`;
}

function valueAt(data: unknown, issuePath: ReadonlyArray<PropertyKey>): unknown {
  let current: unknown = data;
  for (const key of issuePath) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

async function readContextFiles(
  scenario: ScenarioFile,
  absolute: string,
  shown: string,
  source: YamlSource,
): Promise<{ files: ContextFile[]; issues: ConfigIssue[] }> {
  const folder = path.dirname(absolute);
  let realFolder = folder;
  try {
    realFolder = await realpath(folder);
  } catch {
    // A scenario given as text with a virtual path: context files resolve against the plain folder.
  }
  const files: ContextFile[] = [];
  const issues: ConfigIssue[] = [];
  for (const [index, relative] of scenario.background.files.entries()) {
    const fieldPath = ['background', 'files', index];
    const problem = (message: string) =>
      issues.push({
        file: shown,
        ...source.positionOf(fieldPath),
        path: formatFieldPath(fieldPath),
        message,
      });
    const target = path.resolve(folder, relative);
    let realTarget: string;
    try {
      realTarget = await realpath(target);
    } catch {
      problem(
        `context file "${relative}" not found (looked for ${target}); fix the path, relative to the scenario`,
      );
      continue;
    }
    const inside = path.relative(realFolder, realTarget);
    if (inside.startsWith('..') || path.isAbsolute(inside)) {
      problem(`context file "${relative}" is outside the scenario's folder; copy it next to the scenario`);
      continue;
    }
    const result = await readTextFile(realTarget, MAX_CONTEXT_FILE_BYTES);
    if ('refusal' in result) {
      problem(`context file "${relative}" ${result.refusal.message}`);
      continue;
    }
    files.push({ path: relative, content: result.text });
  }
  return { files, issues };
}

/** A file's text when it lies inside the scenario's folder and can be read; otherwise null. */
async function readInsideFolder(scenarioFile: string, relative: string): Promise<string | null> {
  const folder = path.dirname(scenarioFile);
  try {
    const target = await realpath(path.resolve(folder, relative));
    const inside = path.relative(await realpath(folder), target);
    if (inside.startsWith('..') || path.isAbsolute(inside)) return null;
    const result = await readTextFile(target, MAX_PROMPT_FILE_BYTES);
    return 'text' in result ? result.text : null;
  } catch {
    return null;
  }
}

/** A critique judge's `prompt_file`, read now like the agents' so the log holds it as used. */
async function judgeWithPrompt<Judge extends { prompt_file?: string | undefined }>(
  judge: Judge,
  scenarioFile: string,
  warnings: ConfigIssue[],
  toIssue: (finding: { path: Array<string | number>; message: string }) => ConfigIssue,
): Promise<Judge & { system_prompt?: string; prompt_source: string }> {
  if (judge.prompt_file === undefined) return { ...judge, prompt_source: 'built-in' };
  const text = await readInsideFolder(scenarioFile, judge.prompt_file);
  if (text === null || text === undefined || text.trim() === '') {
    warnings.push(
      toIssue({
        path: ['judge', 'prompt_file'],
        message: `prompt file "${judge.prompt_file}" ${text === null || text === undefined ? 'could not be read' : 'is empty'}; the judge uses the built-in prompt`,
      }),
    );
    return { ...judge, prompt_source: 'built-in' };
  }
  const absolute = path.resolve(path.dirname(scenarioFile), judge.prompt_file);
  return { ...judge, system_prompt: text.trim(), prompt_source: `file:${absolute}` };
}
