/**
 * `agora verify [<run> | <folder>] [--database URL]`: checks that event logs are as they were
 * written. Each event carries the hash of the one before it; the first line that does not match is
 * named. Logs written before events were chained are readable, and reported as unchained.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import { printable } from '../../render/terminal-safe.js';
import { chainSummary, checkLines, type LinesCheck } from '../../store/event-chain.js';
import { redactedUrl } from '../../store/postgres/database-url.js';
import type { RunDatabase } from '../../store/postgres/run-database.js';
import { EVENTS_FILE } from '../../store/run-folder.js';
import { runFolders } from '../../store/run-index.js';
import { runPlaces, runSearchFolders } from '../../store/run-places.js';
import { guardStorage } from '../../store/storage-failure.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { JSON_OUTPUT, OUT, SHARED_DATABASE } from '../common-options.js';
import { openDatabaseOption } from '../database-option.js';
import { findRunDir } from '../find-run.js';
import type { CliIo } from '../io.js';
import { databaseRunId } from '../run-reference.js';

const VERIFY_OPTIONS = {
  out: OUT,
  database: SHARED_DATABASE,
  json: JSON_OUTPUT,
} as const satisfies OptionSpecs;

export const verifyCommand = defineCommand({
  name: 'verify',
  usage: '[<run> | <folder>] [options]',
  listing: {
    term: 'verify [<run> | <folder>]',
    text: [
      'check that event logs are as written: a run, a folder of runs (default: the runs',
      'folder) or, with --database, the shared database; names the first line that differs',
    ],
  },
  description:
    'Checks that event logs are as they were written (each event carries the hash of the one before it), and names the first line that does not match.',
  options: VERIFY_OPTIONS,
  run: verify,
});

interface Verdict {
  run: string;
  /** Where the log is: its file, or the database's run id. */
  log: string;
  status: 'chained' | 'unchained' | 'partly-chained' | 'damaged';
  events: number;
  chained: number;
  unchained: number;
  /** The first line that does not match, with what is wrong. */
  problem: string | null;
}

function verdict(run: string, log: string, check: LinesCheck, inFile = true): Verdict {
  const { chained, unchained } = check.chain;
  return {
    run,
    log,
    status:
      check.problem !== null
        ? 'damaged'
        : unchained === 0
          ? 'chained'
          : chained === 0
            ? 'unchained'
            : 'partly-chained',
    events: check.events,
    chained,
    unchained,
    problem:
      check.problem === null
        ? null
        : `${log}${inFile ? ':' : ', line '}${check.problem.line}: ${check.problem.message}`,
  };
}

/** A log file's lines; a torn last line (a write cut off) is left out, as every reader leaves it out. */
function fileLines(file: string): string[] {
  const text = guardStorage(file, 'read', () => readFileSync(file, 'utf8'));
  const lines = text.split('\n');
  const last = lines.pop();
  if (last !== undefined && last !== '') {
    try {
      JSON.parse(last);
      lines.push(last);
    } catch {
      // Torn: never written whole.
    }
  }
  return lines;
}

function verifyFolder(runDir: string): Verdict {
  const log = path.join(runDir, EVENTS_FILE);
  return verdict(path.basename(runDir), log, checkLines(fileLines(log)));
}

async function verifyDatabase(
  reference: string | undefined,
  database: RunDatabase,
  where: string,
): Promise<Verdict[]> {
  const runIds =
    reference === undefined
      ? (await database.runs()).map((run) => run.runId)
      : [await databaseRunId(reference, database, where)];
  const verdicts: Verdict[] = [];
  for (const runId of runIds) {
    const lines = await database.lines(runId);
    // A queued run has no events yet: nothing to check.
    if (lines.length > 0) verdicts.push(verdict(runId, `${where}, run ${runId}`, checkLines(lines), false));
  }
  return verdicts;
}

/** The run folders a reference names: one run, or every run in a folder of runs. */
function localRuns(reference: string | undefined, io: CliIo, out: string | undefined): string[] {
  const places = runPlaces(io.cwd, out);
  if (reference === undefined) return runSearchFolders(places).flatMap((folder) => runFolders(folder));
  const folder = path.resolve(io.cwd, reference);
  let isFolderOfRuns = false;
  try {
    isFolderOfRuns =
      statSync(folder).isDirectory() && !statSync(path.join(folder, EVENTS_FILE), { throwIfNoEntry: false });
  } catch {
    isFolderOfRuns = false;
  }
  if (isFolderOfRuns) {
    const runs = runFolders(folder);
    if (runs.length === 0) throw new UsageError(`${folder} holds no run (no folder with an ${EVENTS_FILE})`);
    return runs;
  }
  return [findRunDir(reference, places, 'verify')];
}

function line(verdict: Verdict): string {
  const label = {
    chained: 'ok',
    'partly-chained': 'ok',
    unchained: 'unchained',
    damaged: 'DAMAGED',
  }[verdict.status];
  const detail = verdict.problem ?? chainSummary({ chained: verdict.chained, unchained: verdict.unchained });
  return `${label.padEnd(10)} ${verdict.run}  ${printable(detail)}\n`;
}

async function verify(
  { values, positionals }: CommandInput<typeof VERIFY_OPTIONS>,
  io: CliIo,
): Promise<number> {
  if (positionals.length > 1) throw new UsageError('name one run or one folder to verify');
  const reference = positionals[0];
  let verdicts: Verdict[];
  const database =
    values.database !== undefined || reference === undefined
      ? await openDatabaseOption(values.database, io)
      : undefined;
  if (database) {
    try {
      verdicts = await verifyDatabase(reference, database, `the database at ${redactedUrl(database.url)}`);
    } finally {
      await database.close();
    }
  } else {
    verdicts = localRuns(reference, io, values.out).map(verifyFolder);
  }
  const damaged = verdicts.filter((each) => each.status === 'damaged').length;
  if (values.json) {
    io.stdout.write(`${JSON.stringify(verdicts, null, 2)}\n`);
  } else {
    for (const each of verdicts) io.stdout.write(line(each));
    const unchained = verdicts.filter((each) => each.status === 'unchained').length;
    io.stdout.write(
      verdicts.length === 0
        ? 'No run to verify.\n'
        : `${verdicts.length} ${verdicts.length === 1 ? 'log' : 'logs'} checked: ${damaged} damaged${unchained > 0 ? `, ${unchained} written before events were chained (readable, not checkable)` : ''}.\n`,
    );
  }
  return damaged > 0 ? ExitCode.runCorrupt : ExitCode.ok;
}
