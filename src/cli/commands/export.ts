/**
 * `agora export <run> --html [--output FILE]`: one self-contained HTML file of a run (transcript,
 * scoreboard, charts), readable offline without a server. Default: transcript.html in the run folder.
 */
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { formatNamed } from '../../formats/index.js';
import { loadRun } from '../../manager/debate-manager.js';
import { lockOwner } from '../../store/run-lock.js';
import { runPlaces } from '../../store/run-places.js';
import { readSpectatorVotes } from '../../store/spectator-votes.js';
import { writeFileAtomic } from '../../store/write-files.js';
import { readWebAsset } from '../../web/assets.js';
import { exportDocument } from '../../web/pages.js';
import { buildRunView } from '../../web/run-view.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { DATABASE, OUT } from '../common-options.js';
import { findRunDir } from '../find-run.js';
import type { CliIo } from '../io.js';
import { checkedOutputFile } from '../output-file.js';

const EXPORT_OPTIONS = {
  html: { help: 'the HTML export (the only kind for now)' },
  output: { value: 'FILE', help: 'where to write it' },
  out: OUT,
  database: DATABASE,
} as const satisfies OptionSpecs;

export const exportCommand = defineCommand({
  name: 'export',
  usage: '<run> --html [options]',
  listing: { term: 'export <run> --html', text: ['one self-contained HTML file of a run (--output FILE)'] },
  description: 'Writes one self-contained HTML file of a run.',
  options: EXPORT_OPTIONS,
  readsDatabaseCopy: true,
  run: exportRun,
});

async function exportRun(
  { values, positionals }: CommandInput<typeof EXPORT_OPTIONS>,
  io: CliIo,
): Promise<number> {
  if (!values.html) {
    throw new UsageError('add --html (transcript.md and transcript.json are already in the run folder)');
  }
  if (positionals.length > 1) throw new UsageError('name one run');
  const output = values.output === undefined ? undefined : checkedOutputFile(values.output, io.cwd);
  const runDir = findRunDir(positionals[0], runPlaces(io.cwd, values.out), 'export');
  const loaded = loadRun(runDir, formatNamed);
  const view = buildRunView(
    loaded.runId,
    loaded.events,
    readSpectatorVotes(runDir),
    lockOwner(runDir) !== null,
    formatNamed,
  );
  const file = output ?? path.join(runDir, 'transcript.html');
  writeFileAtomic(file, exportDocument(view, readWebAsset('style.css')));
  io.stdout.write(`Wrote ${file}\n`);
  return 0;
}
