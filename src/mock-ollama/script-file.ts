/**
 * Loading and validating scripts. A script file is YAML or JSON holding either a top-level
 * `rules:` list or a bare list of rules. Errors name the file, the line when known, and the field.
 */
import { readFile } from 'node:fs/promises';
import { isNode, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { type ScriptRule, scriptRuleSchema } from './script.js';
import { type ServerSettings, serverSettingsShape } from './server-settings.js';

/** One problem found in a script. */
export interface MockScriptIssue {
  /** Dotted field path such as `rules[2].fault`; empty for the whole file. */
  path: string;
  line?: number;
  message: string;
}

/** A script file (or an in-code script) that cannot be used. */
export class MockScriptError extends Error {
  override name = 'MockScriptError';
  readonly file: string;
  readonly issues: MockScriptIssue[];

  constructor(file: string, issues: MockScriptIssue[]) {
    const lines = issues.map((i) => {
      const where = i.line === undefined ? file : `${file}:${i.line}`;
      return `${where}: ${i.path === '' ? '' : `${i.path}: `}${i.message}`;
    });
    super(`Invalid mock script ${file}:\n  ${lines.join('\n  ')}`);
    this.file = file;
    this.issues = issues;
  }
}

const wrappedSchema = z.strictObject({
  rules: z.array(scriptRuleSchema).default([]),
  ...serverSettingsShape,
});

/** A script: its rules, and the server settings written beside them. */
export interface MockScript {
  rules: ScriptRule[];
  settings: ServerSettings;
}

/** `['rules', 2, 'fault']` as `rules[2].fault`. */
function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
}

/** Validates rules and returns them typed; `source` names where they came from in errors. */
export function parseMockScript(
  data: unknown,
  source: string,
  lineOf?: (path: PropertyKey[]) => number | undefined,
): ScriptRule[] {
  return parseMockScriptFile(data, source, lineOf).rules;
}

/** Validates a whole script, rules and settings; `source` names where it came from in errors. */
export function parseMockScriptFile(
  data: unknown,
  source: string,
  lineOf?: (path: PropertyKey[]) => number | undefined,
): MockScript {
  const result = Array.isArray(data)
    ? z.array(scriptRuleSchema).safeParse(data)
    : wrappedSchema.safeParse(data);
  if (result.success) {
    if (Array.isArray(result.data)) return { rules: result.data, settings: {} };
    const { rules, ...settings } = result.data;
    return { rules, settings: withoutUndefined(settings) };
  }
  const issues = result.error.issues.map((issue) => {
    const found = lineOf?.(issue.path);
    const message =
      issue.path.length === 0 && !Array.isArray(data) && (data === null || typeof data !== 'object')
        ? 'expected a list of rules or an object with a "rules" list'
        : issue.message;
    return { path: formatPath(issue.path), message, ...(found === undefined ? {} : { line: found }) };
  });
  issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  throw new MockScriptError(source, issues);
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

/** Reads a YAML or JSON script file's rules, validated; throws MockScriptError naming the file and field. */
export async function loadMockScript(file: string): Promise<ScriptRule[]> {
  return (await loadMockScriptFile(file)).rules;
}

/** Reads a YAML or JSON script file, rules and settings, validated. */
export async function loadMockScriptFile(file: string): Promise<MockScript> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new MockScriptError(file, [{ path: '', message: `cannot read file: ${(error as Error).message}` }]);
  }
  // YAML is a superset of JSON, so one parser serves both and reports line numbers for both.
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const firstError = doc.errors[0];
  if (firstError !== undefined) {
    const line = firstError.linePos?.[0]?.line;
    throw new MockScriptError(file, [
      {
        path: '',
        message: `not valid YAML/JSON: ${firstError.message}`,
        ...(line === undefined ? {} : { line }),
      },
    ]);
  }
  // Point at the deepest node of the failing path that exists (a missing key points at its parent).
  const lineOf = (path: PropertyKey[]): number | undefined => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = doc.getIn(path.slice(0, depth) as (string | number)[], true);
      if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line;
    }
    return undefined;
  };
  return parseMockScriptFile(doc.toJS(), file, lineOf);
}
