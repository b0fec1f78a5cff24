/**
 * A tournament's motions file (`--motions FILE`): plain text, one motion a line (blank lines and
 * lines starting with `#` skipped), or YAML (a `.yaml`/`.yml` file): a list whose entries are a
 * motion's text, or a mapping with `motion` and optional `positions` (the two sides' labels),
 * `background` (text every debater and judge reads) and `persona` (text added to both debaters'
 * prompts, or one per side). Every problem is reported with its line and column.
 */
import path from 'node:path';
import { z } from 'zod';
import { readTextFile } from '../config/read-text-file.js';
import { TOPIC_MAX_CHARS } from '../config/topic-limit.js';
import { parseYamlSource } from '../config/yaml-source.js';
import { ConfigError, type ConfigIssue } from '../core/errors.js';

/** One motion of a tournament. */
export interface Motion {
  /** Its place in the file, from 1, as text: the id the standings and the log use. */
  id: string;
  motion: string;
  /** The sides' labels: the first side argues `a`, the second `b`. */
  positions?: { a: string; b: string };
  background?: string;
  persona?: { a?: string; b?: string };
}

/** A motions file is a page of text, not a data set. */
const MAX_MOTIONS_BYTES = 1024 * 1024;

const text = (what: string) =>
  z
    .string({ error: `must be text (${what})` })
    .refine((value) => value.trim().length > 0, { error: `must not be empty (${what})` });

const motionText = text('a motion');
const entryObject = z.strictObject({
  motion: text('the motion, e.g. "Remote work is better than office work"'),
  positions: z
    .strictObject({ a: text('the first side’s label'), b: text('the second side’s label') })
    .optional(),
  background: text('text every debater and judge reads').optional(),
  persona: z
    .union([
      text('text added to both debaters’ prompts'),
      z.strictObject({
        a: text('the first side’s persona').optional(),
        b: text('the second side’s persona').optional(),
      }),
    ])
    .optional(),
});

const ENTRY_FIELDS = ['motion', 'positions', 'background', 'persona'];

type EntryReading =
  | { ok: true; value: string | z.output<typeof entryObject> }
  | { ok: false; path: Array<string | number>; key?: string; message: string };

/** An entry read by its kind: a motion's text, or a mapping with one; a misspelt field named first. */
function parseEntry(entry: unknown): EntryReading {
  const isMapping = entry !== null && typeof entry === 'object' && !Array.isArray(entry);
  if (isMapping) {
    const unknown = Object.keys(entry).find((key) => !ENTRY_FIELDS.includes(key));
    if (unknown !== undefined)
      return {
        ok: false,
        path: [],
        key: unknown,
        message: `unknown field "${unknown}"; an entry has motion, positions, background and persona`,
      };
    if (!('motion' in entry))
      return { ok: false, path: [], message: 'needs a motion: write "- motion: text"' };
  }
  const parsed = isMapping ? entryObject.safeParse(entry) : motionText.safeParse(entry);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    path: (issue?.path ?? []).map((part) => (typeof part === 'number' ? part : String(part))),
    message: isMapping
      ? (issue?.message ?? 'is not a motion')
      : 'must be a motion’s text, or a mapping with "motion:"',
  };
}

/** Motions count as the same when they differ only in case, spacing or a final full stop. */
const sameness = (motion: string) =>
  motion
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.!?]+$/, '');

export async function readMotionsFile(file: string, cwd: string): Promise<Motion[]> {
  const absolute = path.resolve(cwd, file);
  const result = await readTextFile(absolute, MAX_MOTIONS_BYTES);
  if ('refusal' in result) {
    const { reason, message } = result.refusal;
    throw new ConfigError([
      {
        file,
        path: '',
        message:
          reason === 'missing'
            ? 'file not found; --motions names a text file with one motion a line, or a YAML list of motions'
            : message,
      },
    ]);
  }
  return /\.ya?ml$/i.test(file) ? parseYamlMotions(result.text, file) : parseTextMotions(result.text, file);
}

function checkMotion(motion: string, file: string, line: number, column: number, issues: ConfigIssue[]) {
  if (motion.length > TOPIC_MAX_CHARS) {
    issues.push({
      file,
      line,
      column,
      path: '',
      message: `the motion is longer than ${TOPIC_MAX_CHARS} characters, the limit for a topic; keep it to the motion itself and put longer material in a YAML entry's background`,
    });
  }
}

function checkDuplicates(
  motions: Array<{ motion: string; line: number; column: number }>,
  file: string,
  issues: ConfigIssue[],
) {
  const seen = new Map<string, number>();
  for (const { motion, line, column } of motions) {
    const key = sameness(motion);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      issues.push({
        file,
        line,
        column,
        path: '',
        message: `this motion is the one on line ${earlier} again; every motion is debated with both side orders already, so remove the repeat`,
      });
    } else seen.set(key, line);
  }
}

function emptyFile(file: string): ConfigError {
  return new ConfigError([
    {
      file,
      line: 1,
      column: 1,
      path: '',
      message: 'holds no motion; write one motion a line (or a YAML list of motions)',
    },
  ]);
}

export function parseTextMotions(source: string, file: string): Motion[] {
  const found: Array<{ motion: string; line: number; column: number }> = [];
  const issues: ConfigIssue[] = [];
  source.split(/\r?\n/).forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const column = raw.length - raw.trimStart().length + 1;
    checkMotion(trimmed, file, index + 1, column, issues);
    found.push({ motion: trimmed, line: index + 1, column });
  });
  if (found.length === 0) throw emptyFile(file);
  checkDuplicates(found, file, issues);
  if (issues.length > 0) throw new ConfigError(issues);
  return found.map(({ motion }, index) => ({ id: String(index + 1), motion }));
}

export function parseYamlMotions(source: string, file: string): Motion[] {
  const yaml = parseYamlSource(source);
  const at = (issue: { line?: number; column?: number; message: string }): ConfigIssue => ({
    file,
    line: issue.line ?? 1,
    column: issue.column ?? 1,
    path: '',
    message: issue.message,
  });
  if (yaml.nestingError) throw new ConfigError([at(yaml.nestingError)]);
  if (yaml.syntaxErrors.length > 0)
    throw new ConfigError(
      yaml.syntaxErrors.map((error) => at({ ...error, message: `YAML syntax error: ${error.message}` })),
    );
  if (yaml.expansionError) throw new ConfigError([at(yaml.expansionError)]);
  if (yaml.data === null || yaml.data === undefined) throw emptyFile(file);
  if (!Array.isArray(yaml.data)) {
    throw new ConfigError([
      at({
        line: 1,
        column: 1,
        message:
          'is not a list of motions: write each motion as "- text", or "- motion: text" with positions, background and persona',
      }),
    ]);
  }
  if (yaml.data.length === 0) throw emptyFile(file);
  const issues: ConfigIssue[] = [];
  const motions: Motion[] = [];
  const found: Array<{ motion: string; line: number; column: number }> = [];
  yaml.data.forEach((entry: unknown, index: number) => {
    const parsed = parseEntry(entry);
    if (!parsed.ok) {
      const position = yaml.positionOf([index, ...parsed.path], parsed.key ? { key: parsed.key } : {});
      const field = [
        `[${index}]`,
        ...[...parsed.path, ...(parsed.key ? [parsed.key] : [])].map((part) =>
          typeof part === 'number' ? `[${part}]` : `.${part}`,
        ),
      ].join('');
      issues.push({ file, ...position, path: field, message: parsed.message });
      return;
    }
    const value = parsed.value;
    const position = yaml.positionOf(typeof value === 'string' ? [index] : [index, 'motion']) ?? {
      line: 1,
      column: 1,
    };
    const motion = (typeof value === 'string' ? value : value.motion).trim();
    checkMotion(motion, file, position.line, position.column, issues);
    found.push({ motion, ...position });
    const id = String(index + 1);
    if (typeof value === 'string') {
      motions.push({ id, motion });
      return;
    }
    const persona =
      typeof value.persona === 'string' ? { a: value.persona, b: value.persona } : value.persona;
    motions.push({
      id,
      motion,
      ...(value.positions ? { positions: value.positions } : {}),
      ...(value.background ? { background: value.background } : {}),
      ...(persona && (persona.a || persona.b)
        ? { persona: { ...(persona.a ? { a: persona.a } : {}), ...(persona.b ? { b: persona.b } : {}) } }
        : {}),
    });
  });
  checkDuplicates(found, file, issues);
  if (issues.length > 0) throw new ConfigError(issues);
  return motions;
}
