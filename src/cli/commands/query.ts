/** `agora query "<SQL>"`: read-only questions to the run index. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { INDEX_FILE } from '../../store/run-index.js';
import {
  QUERY_TIME_LIMIT_MAX_SECONDS,
  QUERY_TIME_LIMIT_SECONDS,
  QueryRefusedError,
  queryWithTimeLimit,
} from '../../store/timed-query.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { CSV_OUTPUT, DATABASE, JSON_OUTPUT, OUT } from '../common-options.js';
import { numberFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { renderTable, type TableFormat } from '../table-output.js';
import { terminalLayout } from '../terminal-layout.js';

const QUERY_OPTIONS = {
  out: OUT,
  database: DATABASE,
  json: JSON_OUTPUT,
  csv: CSV_OUTPUT,
  timeout: {
    value: 'SECONDS',
    help: `stop the question after this long (default ${QUERY_TIME_LIMIT_SECONDS}, at most 86400; exit 2)`,
  },
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
  const limit = numberFlag('timeout', values.timeout, 0.001) ?? QUERY_TIME_LIMIT_SECONDS;
  // Node's timers hold at most 24.8 days; a longer limit would fire at once.
  if (limit > QUERY_TIME_LIMIT_MAX_SECONDS) {
    throw new UsageError(
      `--timeout must be at most ${QUERY_TIME_LIMIT_MAX_SECONDS} seconds (a day), got "${values.timeout}"`,
    );
  }
  let result: Awaited<ReturnType<typeof queryWithTimeLimit>>;
  try {
    result = await queryWithTimeLimit(file, sql, limit);
  } catch (error) {
    if (!(error instanceof QueryRefusedError)) throw error;
    throw new UsageError(
      `SQLite refused the statement: ${error.message}. Tables: runs, turns, evaluations, judgements, rotations, rounds, council_turns, actions, council_decisions, answer_checks, batches, batch_runs; views: debate_runs, debate_turns, debate_actions`,
    );
  }
  const format: TableFormat = values.json ? 'json' : values.csv ? 'csv' : 'table';
  io.stdout.write(renderTable(result.columns, result.rows, format, terminalLayout(io.stdout, io.env)));
  return 0;
}
