/**
 * A tournament's line-up file (`--models FILE`, a `.yaml`, `.yml` or `.json` file): the models to
 * compare, as a YAML list (JSON is YAML, so a JSON array reads the same). An entry is a model's
 * name, or a mapping with `model` and the fields a scenario's debater seat already has for it
 * (`think`), plus `family`, which overrides the family the judge rule reads from the name
 * (model-family.ts). Every problem is reported with the file, its line and column, and the field.
 */
import path from 'node:path';
import { z } from 'zod';
import { readTextFile } from '../config/read-text-file.js';
import { parseYamlSource } from '../config/yaml-source.js';
import { ConfigError, type ConfigIssue } from '../core/errors.js';

/** What a line-up entry sets for its model besides the name. */
export interface ModelOptions {
  /** The family the judge rule gives the model, instead of the one its name gives. */
  family?: string;
  /** Let a thinking model think before each statement (the scenario's `think`). */
  think?: boolean;
}

/** The models of a line-up file, in order, and the options of those that set any. */
export interface TournamentLineup {
  models: string[];
  options: Record<string, ModelOptions>;
}

/** A line-up is a short list, not a data set. */
const MAX_LINEUP_BYTES = 256 * 1024;

const ENTRY_FIELDS = ['model', 'family', 'think'];
const FIELDS_TEXT = 'model, family and think';
/** Why the sampling settings are not among them: the hint an unknown field gets. */
const NOT_PER_MODEL =
  'temperature and context window are the same for every model of a tournament, and hosts are given with --host';

const nonBlank = (what: string) =>
  z
    .string({ error: `must be text (${what})` })
    .refine((value) => value.trim().length > 0, { error: `must not be empty (${what})` });

const entryObject = z.strictObject({
  model: nonBlank('a model name the server has, e.g. llama3:8b'),
  family: z
    .string({ error: 'must be text (the family the judge rule gives this model, e.g. llama)' })
    .regex(/^[a-z][a-z0-9._]*$/i, { error: 'must be a word such as llama or qwen' })
    .optional(),
  think: z.boolean({ error: 'must be true or false' }).optional(),
});

/** Whether `--models` names a line-up file rather than a comma-separated list of models. */
export function isLineupFile(value: string): boolean {
  return !value.includes(',') && /\.(ya?ml|json)$/i.test(value.trim());
}

type EntryReading =
  | { ok: true; model: string; options: ModelOptions }
  | { ok: false; path: Array<string | number>; key?: string; message: string };

function readEntry(entry: unknown): EntryReading {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    const parsed = nonBlank('a model name').safeParse(entry);
    return parsed.success
      ? { ok: true, model: parsed.data.trim(), options: {} }
      : {
          ok: false,
          path: [],
          message: 'must be a model’s name, or a mapping with "model:" (and family, think)',
        };
  }
  const unknown = Object.keys(entry).find((key) => !ENTRY_FIELDS.includes(key));
  if (unknown !== undefined)
    return {
      ok: false,
      path: [],
      key: unknown,
      message: `unknown field "${unknown}"; an entry has ${FIELDS_TEXT} (${NOT_PER_MODEL})`,
    };
  if (!('model' in entry)) return { ok: false, path: [], message: 'needs a model: write "- model: llama3"' };
  const parsed = entryObject.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      path: (issue?.path ?? []).map((part) => (typeof part === 'number' ? part : String(part))),
      message: issue?.message ?? 'is not a line-up entry',
    };
  }
  const { model, family, think } = parsed.data;
  return {
    ok: true,
    model: model.trim(),
    options: {
      ...(family !== undefined ? { family: family.toLowerCase() } : {}),
      ...(think !== undefined ? { think } : {}),
    },
  };
}

const fieldText = (index: number, parts: Array<string | number>) =>
  [`[${index}]`, ...parts.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`))].join('');

export function parseLineupSource(source: string, file: string): TournamentLineup {
  const yaml = parseYamlSource(source);
  const at = (issue: { line?: number; column?: number; message: string }, field = ''): ConfigIssue => ({
    file,
    line: issue.line ?? 1,
    column: issue.column ?? 1,
    path: field,
    message: issue.message,
  });
  if (yaml.nestingError) throw new ConfigError([at(yaml.nestingError)]);
  if (yaml.syntaxErrors.length > 0)
    throw new ConfigError(
      yaml.syntaxErrors.map((error) => at({ ...error, message: `syntax error: ${error.message}` })),
    );
  if (yaml.expansionError) throw new ConfigError([at(yaml.expansionError)]);
  if (!Array.isArray(yaml.data))
    throw new ConfigError([
      at({
        message:
          yaml.data === null || yaml.data === undefined
            ? 'holds no model; list at least two, one entry each ("- llama3", or "- model: llama3" with family and think)'
            : 'is not a list of models: write each as "- llama3", or "- model: llama3" with family and think',
      }),
    ]);
  const issues: ConfigIssue[] = [];
  const models: string[] = [];
  const options: Record<string, ModelOptions> = {};
  yaml.data.forEach((entry: unknown, index: number) => {
    const read = readEntry(entry);
    if (!read.ok) {
      const position = yaml.positionOf([index, ...read.path], read.key ? { key: read.key } : {});
      issues.push({
        file,
        ...position,
        path: fieldText(index, [...read.path, ...(read.key ? [read.key] : [])]),
        message: read.message,
      });
      return;
    }
    const position = yaml.positionOf(typeof entry === 'string' ? [index] : [index, 'model']);
    const earlier = models.indexOf(read.model);
    if (earlier !== -1) {
      const first = yaml.positionOf([earlier]);
      issues.push({
        file,
        ...position,
        path: fieldText(index, typeof entry === 'string' ? [] : ['model']),
        message: `names ${read.model} again (first at line ${first?.line ?? '?'}); name each model once`,
      });
      return;
    }
    models.push(read.model);
    if (Object.keys(read.options).length > 0) options[read.model] = read.options;
  });
  if (issues.length > 0) throw new ConfigError(issues);
  if (models.length < 2)
    throw new ConfigError([
      at({
        message: `names ${models.length === 0 ? 'no model' : `only ${models[0]}`}; a tournament compares at least two models: add another entry ("- mistral")`,
      }),
    ]);
  return { models, options };
}

/** Reads the line-up file `file` (relative to `cwd`). */
export async function readLineupFile(file: string, cwd: string): Promise<TournamentLineup> {
  const result = await readTextFile(path.resolve(cwd, file), MAX_LINEUP_BYTES);
  if ('refusal' in result) {
    const { reason, message } = result.refusal;
    throw new ConfigError([
      {
        file,
        path: '',
        message:
          reason === 'missing'
            ? 'file not found; --models names the models as A,B,C, or a line-up file (.yaml, .yml or .json) listing them'
            : message,
      },
    ]);
  }
  return parseLineupSource(result.text, file);
}
