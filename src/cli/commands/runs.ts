import { formatNames } from '../../formats/index.js';
import { LISTING_STATUSES, listRuns } from '../../manager/run-listing.js';
import { runPlaces, runSearchFolders } from '../../store/run-places.js';
import { requireBatch, requireOneOf } from '../filter-values.js';
import type { CliIo } from '../io.js';
import { parseCommand } from '../parse.js';
import { renderTable } from '../table-output.js';
import { terminalLayout } from '../terminal-layout.js';

export async function runsCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand('runs', argv, {
    out: { type: 'string' },
    json: { type: 'boolean' },
    csv: { type: 'boolean' },
    status: { type: 'string' },
    format: { type: 'string' },
    topic: { type: 'string' },
    model: { type: 'string' },
    batch: { type: 'string' },
  });
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
    io.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
    return 0;
  }
  if (runs.length === 0 && !values.csv) {
    io.stdout.write(
      `No runs in ${runSearchFolders(places).join(' or ')}${Object.keys(values).length > 1 ? ' match those filters' : ''}.\n`,
    );
    return 0;
  }
  const columns = ['Run', 'Format', 'Status', 'Failed steps', 'Topic', 'Models', 'Progress', 'Stop reason'];
  const rows = runs.map((run) => [
    run.runId,
    // A demo's text is the simulator's, not a model's: never let it pass for a real run.
    run.simulated ? `${run.format} (demo)` : run.format,
    run.status,
    run.failedSteps,
    run.topic,
    run.models,
    run.progress,
    run.stopReason,
  ]);
  io.stdout.write(
    renderTable(columns, rows, values.csv ? 'csv' : 'table', terminalLayout(io.stdout, io.env)),
  );
  return 0;
}
