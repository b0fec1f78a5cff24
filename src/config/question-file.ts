/**
 * A user's own questions: a YAML list or JSONL (one JSON object a line), each with `question`,
 * `answer`, `wrong_answer`, and optionally `id` and a passage (text the debaters see and the judge
 * does not): written in as `passage`, or kept in a text file of its own named by `passage_file`
 * (relative to the questions file; questions that name the same file share its passage). Every
 * problem is reported at once, with the file, the field and the fix (exit 3).
 */

import path from 'node:path';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { readTextFile } from './read-text-file.js';
import type { TruthQuestion } from './truth-question.js';
import { parseYamlSource } from './yaml-source.js';

/** A question set is a few hundred short questions, not a corpus. */
export const MAX_QUESTIONS = 500;
const MAX_FIELD_CHARS = 4000;
const REQUIRED = ['question', 'answer', 'wrong_answer'] as const;
const ALLOWED = new Set(['id', 'question', 'answer', 'wrong_answer', 'passage', 'passage_file']);
/** A passage in a file of its own may be long; whether it fits the debaters' window is checked with the scenario. */
const MAX_PASSAGE_FILE_BYTES = 256 * 1024;

/** A question whose passage is in a file, and where in the questions file it says so. */
interface PassageReference {
  question: TruthQuestion;
  file: string;
  where: Omit<ConfigIssue, 'message'>;
}

interface Entry {
  value: unknown;
  /** Where the entry is, for messages: a JSONL line, or the YAML item's line. */
  line?: number;
}

/** Reads the entries of a question file's text; `.jsonl` (or `.ndjson`) is JSONL, anything else YAML. */
function entriesOf(text: string, file: string): Entry[] {
  if (/\.(jsonl|ndjson)$/i.test(file)) {
    const entries: Entry[] = [];
    const issues: ConfigIssue[] = [];
    text.split('\n').forEach((raw, at) => {
      if (raw.trim() === '') return;
      try {
        entries.push({ value: JSON.parse(raw), line: at + 1 });
      } catch (error) {
        issues.push({
          file,
          line: at + 1,
          column: 1,
          path: '',
          message: `is not a JSON object (${(error as Error).message}); write one question a line as {"question": "...", "answer": "...", "wrong_answer": "..."}`,
        });
      }
    });
    if (issues.length > 0) throw new ConfigError(issues);
    return entries;
  }
  const source = parseYamlSource(text);
  if (source.syntaxErrors.length > 0 || source.nestingError || source.expansionError) {
    const first = source.syntaxErrors[0];
    throw new ConfigError([
      {
        file,
        ...(first ? { line: first.line, column: first.column } : {}),
        path: '',
        message: `is not valid YAML (${first?.message ?? source.nestingError?.message ?? source.expansionError?.message}); write a list of questions, each with question, answer and wrong_answer`,
      },
    ]);
  }
  const data = source.data as unknown;
  const list = Array.isArray(data)
    ? data
    : data !== null && typeof data === 'object' && Array.isArray((data as { questions?: unknown }).questions)
      ? ((data as { questions: unknown[] }).questions as unknown[])
      : null;
  if (list === null) {
    throw new ConfigError([
      {
        file,
        line: 1,
        column: 1,
        path: '',
        message:
          'is not a list of questions; write a YAML list (or `questions:` with a list), each item with question, answer and wrong_answer',
      },
    ]);
  }
  const inList = Array.isArray(data) ? [] : ['questions'];
  return list.map((value, at) => ({ value, line: source.positionOf([...inList, at])?.line }));
}

/** The questions in `text` (the contents of `file`), checked; throws a ConfigError naming each problem. */
export function parseQuestionFile(text: string, file: string): TruthQuestion[] {
  return parseQuestions(text, file).questions;
}

function parseQuestions(
  text: string,
  file: string,
): { questions: TruthQuestion[]; references: PassageReference[] } {
  const references: PassageReference[] = [];
  const entries = entriesOf(text, file);
  const issues: ConfigIssue[] = [];
  const where = (entry: Entry, at: number, field?: string): Omit<ConfigIssue, 'message'> => ({
    file,
    ...(entry.line !== undefined ? { line: entry.line, column: 1 } : {}),
    path: `[${at}]${field ? `.${field}` : ''}`,
  });
  if (entries.length === 0) {
    throw new ConfigError([
      {
        file,
        path: '',
        message: 'holds no questions; add at least one with question, answer and wrong_answer',
      },
    ]);
  }
  if (entries.length > MAX_QUESTIONS) {
    throw new ConfigError([
      {
        file,
        path: '',
        message: `holds ${entries.length} questions, more than the ${MAX_QUESTIONS} one run takes; split it into several files`,
      },
    ]);
  }
  const questions: TruthQuestion[] = [];
  const ids = new Set<string>();
  entries.forEach((entry, at) => {
    const item = entry.value;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      issues.push({
        ...where(entry, at),
        message: 'is not a question; write an object with question, answer and wrong_answer',
      });
      return;
    }
    const record = item as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!ALLOWED.has(key)) {
        issues.push({
          ...where(entry, at, key),
          message: `is not a field of a question; the fields are ${[...ALLOWED].join(', ')}`,
        });
      }
    }
    const text = (field: string, required: boolean): string | undefined => {
      const value = record[field];
      if (value === undefined || value === null) {
        if (required)
          issues.push({
            ...where(entry, at, field),
            message: `is missing; every question needs ${REQUIRED.join(', ')}`,
          });
        return undefined;
      }
      // Numbers are answers too ("42"); anything else is a mistake.
      const written = typeof value === 'number' ? String(value) : value;
      if (typeof written !== 'string' || written.trim() === '') {
        issues.push({ ...where(entry, at, field), message: 'must be non-empty text (or a number)' });
        return undefined;
      }
      if (written.length > MAX_FIELD_CHARS) {
        issues.push({
          ...where(entry, at, field),
          message: `is longer than ${MAX_FIELD_CHARS} characters; shorten it`,
        });
        return undefined;
      }
      return written.trim();
    };
    const question = text('question', true);
    const answer = text('answer', true);
    const wrong = text('wrong_answer', true);
    const passage = text('passage', false);
    const passageFile = text('passage_file', false);
    if (passage !== undefined && passageFile !== undefined) {
      issues.push({
        ...where(entry, at, 'passage_file'),
        message:
          'is given beside passage; keep one of them (the passage written in, or the file that holds it)',
      });
      return;
    }
    const id = text('id', false) ?? `q${at + 1}`;
    if (answer !== undefined && wrong !== undefined && answer.toLowerCase() === wrong.toLowerCase()) {
      issues.push({
        ...where(entry, at, 'wrong_answer'),
        message: `is the same as answer ("${answer}"); give the wrong answer a careless reasoner would give`,
      });
      return;
    }
    if (ids.has(id)) {
      issues.push({
        ...where(entry, at, 'id'),
        message: `"${id}" is used by an earlier question; make ids unique`,
      });
      return;
    }
    ids.add(id);
    if (question === undefined || answer === undefined || wrong === undefined) return;
    const made: TruthQuestion = {
      id,
      question,
      answer,
      wrong_answer: wrong,
      ...(passage ? { passage } : {}),
    };
    questions.push(made);
    if (passageFile !== undefined)
      references.push({ question: made, file: passageFile, where: where(entry, at, 'passage_file') });
  });
  if (issues.length > 0) throw new ConfigError(issues);
  return { questions, references };
}

/** Reads the passage files the questions name, each once; questions naming one file share its passage. */
async function readPassageFiles(references: PassageReference[], folder: string): Promise<void> {
  const issues: ConfigIssue[] = [];
  const texts = new Map<string, string | null>();
  for (const reference of references) {
    if (!texts.has(reference.file)) {
      const result = await readTextFile(path.resolve(folder, reference.file), MAX_PASSAGE_FILE_BYTES);
      if ('refusal' in result) {
        const { reason, message } = result.refusal;
        issues.push({
          ...reference.where,
          message:
            reason === 'missing'
              ? `names ${reference.file}, which does not exist; passage files are read relative to the questions file`
              : reason === 'folder'
                ? `names ${reference.file}, a folder; name the text file that holds the passage`
                : `names ${reference.file}: ${message}; a passage file is a plain text file`,
        });
        texts.set(reference.file, null);
        continue;
      }
      const passage = result.text.trim();
      if (passage === '')
        issues.push({
          ...reference.where,
          message: `names ${reference.file}, which is empty; put the passage in it`,
        });
      texts.set(reference.file, passage === '' ? null : passage);
    }
    const passage = texts.get(reference.file);
    if (passage) {
      reference.question.passage = passage;
      reference.question.passage_id = reference.file;
    }
  }
  if (issues.length > 0) throw new ConfigError(issues);
}

const MAX_QUESTION_FILE_BYTES = 4 * 1024 * 1024;

/** Reads and checks a question file; `shown` is the name used in messages. */
export async function readQuestionFile(absolute: string, shown: string): Promise<TruthQuestion[]> {
  const result = await readTextFile(absolute, MAX_QUESTION_FILE_BYTES);
  if ('refusal' in result) {
    const { reason, message } = result.refusal;
    const fix =
      reason === 'missing'
        ? 'file not found; check the path (it is read relative to the scenario, or to the working folder for --questions)'
        : reason === 'folder'
          ? 'is a folder; name a .yaml or .jsonl file of questions'
          : `${message}; a question file is a YAML or JSONL text file`;
    throw new ConfigError([{ file: shown, path: '', message: fix }]);
  }
  const { questions, references } = parseQuestions(result.text, shown);
  await readPassageFiles(references, path.dirname(absolute));
  return questions;
}
