import { leaderboard } from '../../analytics/leaderboard.js';
import { UsageError } from '../../core/errors.js';
import { formatNamed } from '../../formats/index.js';
import { openRunIndex } from '../../manager/indexing.js';
import { runPlaces, runSearchFolders } from '../../store/run-places.js';
import { requireBatch } from '../filter-values.js';
import type { CliIo } from '../io.js';
import { parseCommand } from '../parse.js';
import { renderTable } from '../table-output.js';
import { terminalLayout } from '../terminal-layout.js';

const TABLES = ['models', 'agents', 'ranking', 'judges', 'reliability'] as const;

export async function leaderboardCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand('leaderboard', argv, {
    out: { type: 'string' },
    batch: { type: 'string' },
    json: { type: 'boolean' },
    csv: { type: 'boolean' },
    table: { type: 'string' },
    'include-demo': { type: 'boolean' },
  });
  const picked = values.table ? TABLES.indexOf(values.table as (typeof TABLES)[number]) : -1;
  if (values.table && picked === -1) throw new UsageError(`--table must be one of ${TABLES.join(', ')}`);
  const places = runPlaces(io.cwd, values.out);
  const outDir = places.runs;
  const index = openRunIndex(outDir, formatNamed, runSearchFolders(places));
  try {
    if (values.batch !== undefined) {
      const batches = index.query(
        'SELECT batch_id FROM batches UNION SELECT batch_id FROM runs WHERE batch_id IS NOT NULL',
      );
      requireBatch(
        values.batch,
        batches.rows.map((row) => String(row[0])),
        outDir,
      );
    }
    const tables = leaderboard(index, {
      ...(values.batch ? { batchId: values.batch } : {}),
      ...(values['include-demo'] ? { includeDemo: true } : {}),
    });
    const chosen = picked === -1 ? tables : [tables[picked] as (typeof tables)[number]];
    if (values.json) {
      io.stdout.write(
        `${JSON.stringify(
          chosen.map((table) => ({ ...table, rows: renderJsonRows(table) })),
          null,
          2,
        )}\n`,
      );
      return 0;
    }
    if (values.csv) {
      if (chosen.length !== 1)
        throw new UsageError('--csv prints one table: add --table models|agents|ranking|judges|reliability');
      const [table] = chosen;
      if (table) io.stdout.write(renderTable(table.columns, table.rows, 'csv'));
      return 0;
    }
    for (const table of chosen) {
      io.stdout.write(
        `\n${table.title}\n${renderTable(table.columns, table.rows, 'table', terminalLayout(io.stdout, io.env))}`,
      );
      if (table.note) io.stdout.write(`${table.note}\n`);
    }
    return 0;
  } finally {
    index.close();
  }
}

function renderJsonRows(table: { columns: string[]; rows: Array<Array<string | number | null>> }) {
  return table.rows.map((row) =>
    Object.fromEntries(table.columns.map((column, at) => [column, row[at] ?? null])),
  );
}
