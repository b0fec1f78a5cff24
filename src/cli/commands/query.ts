/** `agora query "<SQL>"`: read-only questions to the run index. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { INDEX_FILE, RunIndex } from '../../store/run-index.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { CSV_OUTPUT, DATABASE, JSON_OUTPUT, OUT } from '../common-options.js';
import type { CliIo } from '../io.js';
import { renderTable, type TableFormat } from '../table-output.js';

const QUERY_OPTIONS = {
  out: OUT,
  database: DATABASE,
  json: JSON_OUTPUT,
  csv: CSV_OUTPUT,
} as const satisfies OptionSpecs;

export const queryCommand = defineCommand({
  name: 'query',
  usage: '"SELECT ..." [options]',
  listing: {
    term: 'query "SELECT ..."',
    text: ['a read-only SQL question to the run index (--json, --csv)'],
  },
  description: 'A read-only SQL question to the run index.',
  options: QUERY_OPTIONS,
  readsDatabaseCopy: true,
  run: queryIndex,
});

async function queryIndex(
  { values, positionals }: CommandInput<typeof QUERY_OPTIONS>,
  io: CliIo,
): Promise<number> {
  const sql = positionals.join(' ').trim();
  if (sql === '')
    throw new UsageError(
      'give a SELECT statement, e.g. agora query "SELECT format, COUNT(*) FROM runs GROUP BY format"',
    );
  // One statement only; the index is also opened read-only, so SQLite itself refuses writes.
  if (/;\s*\S/.test(sql)) throw new UsageError('give one statement, without a second after `;`');
  const file = path.join(path.resolve(io.cwd, values.out ?? 'transcripts'), INDEX_FILE);
  if (!existsSync(file)) throw new UsageError(`there is no run index at ${file}; run \`agora reindex\``);
  const index = RunIndex.open(file, { readonly: true });
  try {
    let result: ReturnType<RunIndex['query']>;
    try {
      if (!index.readsOnly(sql)) throw new Error('only statements that read (SELECT or WITH) are allowed');
      result = index.query(sql);
    } catch (error) {
      throw new UsageError(
        `SQLite refused the statement: ${(error as Error).message}. Tables: runs, turns, evaluations, judgements, rotations, rounds, council_turns, actions, council_decisions, answer_checks, batches, batch_runs; views: debate_runs, debate_turns, debate_actions`,
      );
    }
    const format: TableFormat = values.json ? 'json' : values.csv ? 'csv' : 'table';
    io.stdout.write(renderTable(result.columns, result.rows, format));
    return 0;
  } finally {
    index.close();
  }
}
