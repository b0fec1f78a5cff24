import path from 'node:path';
import { csvTable, leaderboard } from '../../analytics/leaderboard.js';
import { truthTable } from '../../analytics/truth-leaderboard.js';
import { UsageError } from '../../core/errors.js';
import { plural } from '../../core/plural.js';
import { formatNamed } from '../../formats/index.js';
import { openRunIndex } from '../../manager/indexing.js';
import { safeJson } from '../../render/terminal-safe.js';
import { fitLines } from '../../render/wrap-text.js';
import { runPlaces, runSearchFolders } from '../../store/run-places.js';
import { holdsTournament } from '../../tournament/tournament-log.js';
import { loadTournament } from '../../tournament/tournament-setup.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { DATABASE, JSON_OUTPUT, OUT } from '../common-options.js';
import { requireBatch } from '../filter-values.js';
import type { CliIo } from '../io.js';
import { oneTableText, overviewText } from '../leaderboard-text.js';
import { renderTable } from '../table-output.js';
import { terminalLayout } from '../terminal-layout.js';
import { printStandings } from './tournament-standings.js';

const TABLES = [
  'models',
  'agents',
  'ranking',
  'judges',
  'reliability',
  'arguments',
  'people',
  'calibration',
  'rankings',
  'truth',
] as const;

const LEADERBOARD_OPTIONS = {
  batch: { value: 'ID', help: 'only the runs of this batch' },
  tournament: { value: 'DIR', help: 'the standings of the tournament in DIR, as it printed them' },
  'include-demo': { help: 'also count runs on the built-in simulator (left out by default)' },
  table: {
    value: 'NAME',
    help: 'one table: models, agents, ranking, judges, reliability, arguments, people, calibration, rankings or truth',
  },
  out: OUT,
  database: DATABASE,
  json: JSON_OUTPUT,
  csv: { help: 'comma-separated output (with --table)' },
} as const satisfies OptionSpecs;

export const leaderboardCommand = defineCommand({
  name: 'leaderboard',
  usage: '[options]',
  listing: {
    term: 'leaderboard',
    text: [
      "models, agents, a Bradley-Terry ranking, judge agreement, argument scores, people's ranking",
      'judges against people, the two rankings compared, judges against known answers (--batch ID,',
      '--json, --csv --table NAME: models, agents, ranking, judges, reliability, arguments, people,',
      "calibration, rankings or truth); --tournament DIR: a tournament's standings",
    ],
  },
  description:
    "Models, agents, a Bradley-Terry ranking, judge agreement, argument scores, the people's ranking from the blind arena, judges against people and the two rankings compared, across indexed runs.",
  options: LEADERBOARD_OPTIONS,
  readsDatabaseCopy: true,
  run: showLeaderboard,
});

async function showLeaderboard(
  { values }: CommandInput<typeof LEADERBOARD_OPTIONS>,
  io: CliIo,
): Promise<number> {
  if (values.tournament !== undefined) return tournamentStandings(values.tournament, values, io);
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
    const options = {
      ...(values.batch ? { batchId: values.batch } : {}),
      ...(values['include-demo'] ? { includeDemo: true } : {}),
    };
    const tables = [...leaderboard(index, options), truthTable(index, outDir, options)];
    const chosen = picked === -1 ? tables : [tables[picked] as (typeof tables)[number]];
    if (values.json) {
      io.stdout.write(
        `${safeJson(
          chosen.map((table) => ({ ...table, rows: renderJsonRows(table) })),
          2,
        )}\n`,
      );
      return 0;
    }
    if (values.csv) {
      if (chosen.length !== 1)
        throw new UsageError(`--csv prints one table: add --table ${TABLES.join('|')}`);
      const [chosenTable] = chosen;
      if (chosenTable) {
        // An interval's two ends in two columns of numbers.
        const table = csvTable(chosenTable);
        io.stdout.write(renderTable(table.columns, table.rows, 'csv', terminalLayout(io.stdout, io.env)));
      }
      return 0;
    }
    const left = values['include-demo'] ? '' : demoRunsLeftOut(index, values.batch, chosen);
    if (left) io.stdout.write(fitLines(`${left}\n`, terminalLayout(io.stdout, io.env).width));
    const layout = terminalLayout(io.stdout, io.env);
    const [one] = chosen;
    io.stdout.write(
      picked !== -1 && one
        ? oneTableText(one, layout)
        : overviewText(
            tables.map((table, at) => ({ name: TABLES[at] ?? table.title, table })),
            layout,
          ),
    );
    return 0;
  } finally {
    index.close();
  }
}

/** `--tournament DIR`: the tournament's own standings, from its log. */
function tournamentStandings(
  dir: string,
  values: { json?: boolean; csv?: boolean; batch?: string; table?: string },
  io: CliIo,
): number {
  if (values.batch !== undefined || values.table !== undefined)
    throw new UsageError('--tournament prints the tournament’s standings: leave out --batch and --table');
  const folder = path.resolve(io.cwd, dir);
  if (!holdsTournament(folder))
    throw new UsageError(
      `${dir} holds no tournament (no tournament.jsonl there); name a tournament's folder`,
    );
  printStandings(loadTournament(folder), folder, values, io);
  return 0;
}

function renderJsonRows(table: { columns: string[]; rows: Array<Array<string | number | null>> }) {
  return table.rows.map((row) =>
    Object.fromEntries(table.columns.map((column, at) => [column, row[at] ?? null])),
  );
}

/**
 * What the tables leave out: demo runs (on the built-in simulator) are not counted unless asked
 * for, and a folder of demo runs alone would otherwise print empty tables without a word why.
 */
function demoRunsLeftOut(
  index: ReturnType<typeof openRunIndex>,
  batch: string | undefined,
  tables: Array<{ rows: unknown[] }>,
): string {
  const where = batch === undefined ? '' : ' WHERE batch_id = ?';
  const counts = index.query(
    `SELECT COALESCE(SUM(CASE WHEN COALESCE(simulated, 0) = 1 THEN 1 ELSE 0 END), 0), COUNT(*) FROM runs${where}`,
    batch === undefined ? [] : [batch],
  ).rows[0];
  const demo = Number(counts?.[0] ?? 0);
  const all = Number(counts?.[1] ?? 0);
  if (demo === 0) return '';
  const empty = tables.every((table) => table.rows.length === 0);
  if (demo === all && empty) {
    return `Nothing to rank: ${demo === 1 ? 'the one run here is a demo run' : `all ${demo} runs here are demo runs`} (on the built-in simulator), and demo runs are left out by default. Add --include-demo to count them.`;
  }
  return `${plural(demo, 'demo run')} (on the built-in simulator) left out; add --include-demo to count ${demo === 1 ? 'it' : 'them'}.`;
}
