/**
 * `agora runs`: runs with status, format, outcome, topic, progress and stop reason, from the run index (a
 * run that is not indexed yet, such as one still running, is read from its log). Filters:
 * --status, --format, --topic (a substring), --model, --batch; --json or --csv.
 */
import { stopReasonText } from '../../core/stop-reason-text.js';
import { formatNames } from '../../formats/index.js';
import { LISTING_STATUSES, listRuns } from '../../manager/run-listing.js';
import { safeJson } from '../../render/terminal-safe.js';
import { runPlaces, runSearchFolders } from '../../store/run-places.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { CSV_OUTPUT, DATABASE, JSON_OUTPUT, OUT } from '../common-options.js';
import { requireBatch, requireOneOf } from '../filter-values.js';
import type { CliIo } from '../io.js';
import { renderTable } from '../table-output.js';
import { terminalLayout } from '../terminal-layout.js';

const WHOLE_TABLE_WIDTH = 160;
const NARROW_LEFT_OUT = ['Failed steps', 'Models', 'Stop reason'];

const RUNS_OPTIONS = {
  out: OUT,
  database: DATABASE,
  status: {
    value: 'STATUS',
    help: 'running, completed, degraded, stopped, failed, interrupted or damaged',
  },
  format: { value: 'NAME', help: 'knockout, formal, duel, critique, council or truth' },
  topic: { value: 'TEXT', help: 'topics containing this text' },
  model: { value: 'NAME', help: 'runs that used this model' },
  batch: { value: 'ID', help: 'runs of this batch (see `agora leaderboard` or transcripts/batches/)' },
  json: JSON_OUTPUT,
  csv: CSV_OUTPUT,
} as const satisfies OptionSpecs;

export const runsCommand = defineCommand({
  name: 'runs',
  usage: '[options]',
  listing: {
    term: 'runs [--json]',
    text: ['list runs with status, outcome, topic, progress and stop reason (--out DIR)'],
  },
  description: 'Lists runs with status, format, who won, topic, progress and stop reason.',
  options: RUNS_OPTIONS,
  readsDatabaseCopy: true,
  run: showRuns,
});

async function showRuns({ values }: CommandInput<typeof RUNS_OPTIONS>, io: CliIo): Promise<number> {
  requireOneOf('status', values.status, LISTING_STATUSES);
  requireOneOf('format', values.format, formatNames());
  const places = runPlaces(io.cwd, values.out);
  const outDir = places.runs;
  const listed = await listRuns(places);
  requireBatch(values.batch, listed.map((run) => run.batch).filter(Boolean), outDir);
  const runs = listed.filter(
    (run) =>
      (!values.status || run.status === values.status) &&
      (!values.format || run.format === values.format) &&
      (!values.topic || run.topic.toLowerCase().includes(values.topic.toLowerCase())) &&
      (!values.model ||
        run.models
          .split(',')
          .some((model) => model === values.model || model === `${values.model}:latest`)) &&
      (!values.batch || run.batch === values.batch),
  );
  if (values.json) {
    io.stdout.write(`${safeJson(runs, 2)}\n`);
    return 0;
  }
  if (runs.length === 0 && !values.csv) {
    io.stdout.write(
      `No runs in ${runSearchFolders(places).join(' or ')}${Object.keys(values).length > 1 ? ' match those filters' : ''}.\n`,
    );
    return 0;
  }
  const columns = [
    'Run',
    'Format',
    'Status',
    'Topic',
    'Progress',
    'Outcome',
    'Failed steps',
    'Models',
    'Stop reason',
  ];
  const csv = values.csv === true;
  const rows = runs.map((run) => [
    run.runId,
    // A demo's text is the simulator's, not a model's: never let it pass for a real run.
    run.simulated ? `${run.format} (demo)` : run.format,
    run.status,
    run.topic,
    run.progress,
    // Who won, or how far an unfinished run got: the same sentence as the viewer's.
    run.outcome || (run.status === 'running' ? 'still running' : ''),
    run.failedSteps,
    // On screen the list wraps between models, never inside a model's name.
    csv ? run.models : run.models.split(',').join(', '),
    stopReasonText(run.stopReason),
  ]);
  const layout = terminalLayout(io.stdout, io.env);
  // Under 160 columns the outcome says more than these, which stay in --json and --csv.
  const narrow = !csv && layout.width < WHOLE_TABLE_WIDTH;
  const shown = columns
    .map((_, at) => at)
    .filter((at) => !(narrow && NARROW_LEFT_OUT.includes(columns[at] ?? '')));
  io.stdout.write(
    // A run id is never broken: users copy it from here.
    renderTable(
      shown.map((at) => columns[at] ?? ''),
      rows.map((row) => shown.map((at) => row[at])),
      csv ? 'csv' : 'table',
      layout,
      { keepWhole: ['Run'] },
    ),
  );
  if (narrow) {
    io.stdout.write('Left out at this width: failed steps, models, stop reason (see --json).\n');
  }
  return 0;
}
