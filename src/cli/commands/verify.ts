/**
 * `agora verify [<run> | <folder>] [--database URL]`: checks that event logs are as they were
 * written. Each event carries the hash of the one before it; the first line that does not match is
 * named. Logs written before events were chained are readable, and reported as unchained.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import { printable } from '../../render/terminal-safe.js';
import { editorDamage, editorDamageText, logLines } from '../../store/editor-damage.js';
import { chainSummary, checkLines, type LinesCheck } from '../../store/event-chain.js';
import { redactedUrl } from '../../store/postgres/database-url.js';
import type { RunDatabase } from '../../store/postgres/run-database.js';
import { EVENTS_FILE } from '../../store/run-folder.js';
import { runFolders } from '../../store/run-index.js';
import { acquireRunLock } from '../../store/run-lock.js';
import { runPlaces, runSearchFolders } from '../../store/run-places.js';
import { guardStorage } from '../../store/storage-failure.js';
import { writeFileAtomic } from '../../store/write-files.js';
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
  repair: {
    help: 'undo what an editor did to a log (Windows line endings, a byte-order mark) when its events are otherwise intact',
  },
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
  description: [
    'Checks that event logs are as they were written (each event carries the hash of the one before it), and names the first line that does not match.',
    '',
    'What it cannot catch: the chain is not signed, so anyone who can write the run folder can rewrite a line and every line after it, hashes included, and the log checks again; and lines cut off the end leave a shorter log that checks, read as a run interrupted there: `agora resume` redoes those steps with the same seeds, so nothing shows they were ever written.',
    '',
    'A log an editor saved with Windows line endings or a byte-order mark is named as such; --repair undoes that when every event is otherwise intact.',
  ].join('\n'),
  options: VERIFY_OPTIONS,
  run: verify,
});

interface Verdict {
  run: string;
  /** Where the log is: its file, or the database's run id. */
  log: string;
  status: 'chained' | 'unchained' | 'partly-chained' | 'damaged' | 'repaired';
  events: number;
  chained: number;
  unchained: number;
  /** The first line that does not match, with what is wrong. */
  problem: string | null;
  /** What an editor did to the log (Windows line endings, a byte-order mark), undone or to undo. */
  editor?: string[];
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

/**
 * A run folder's log checked. A log an editor saved with Windows line endings or a byte-order mark
 * is named as such, apart from a broken chain; with `repair`, it is written back as Agora wrote it
 * (under the run's lock, in one rename), but only when every event then matches the chain.
 */
function verifyFolder(runDir: string, repair: boolean): Verdict {
  const log = path.join(runDir, EVENTS_FILE);
  const text = guardStorage(log, 'read', () => readFileSync(log, 'utf8'));
  const damage = editorDamage(text);
  if (damage === null) return verdict(path.basename(runDir), log, checkLines(logLines(text)));
  if (repair && damage.beyond === null) {
    const release = acquireRunLock(runDir);
    try {
      // Read again under the lock: what is written back is what was checked.
      const held = guardStorage(log, 'read', () => readFileSync(log, 'utf8'));
      const again = editorDamage(held);
      if (again !== null && again.beyond === null) {
        writeFileAtomic(log, again.undone);
        return {
          ...verdict(path.basename(runDir), log, checkLines(logLines(again.undone))),
          status: 'repaired',
          editor: again.found,
        };
      }
    } finally {
      release();
    }
    return verifyFolder(runDir, false);
  }
  return {
    run: path.basename(runDir),
    log,
    status: 'damaged',
    events: 0,
    chained: 0,
    unchained: 0,
    problem: `${log}: ${editorDamageText(damage, log, runDir)}`,
    editor: damage.found,
  };
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
    repaired: 'repaired',
  }[verdict.status];
  const summary = chainSummary({ chained: verdict.chained, unchained: verdict.unchained });
  const detail =
    verdict.problem ??
    (verdict.status === 'repaired' ? `${verdict.editor?.join(' and ')} undone; ${summary}` : summary);
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
    if (values.repair) {
      await database.close();
      throw new UsageError(
        '--repair undoes what an editor did to a log file; the shared database keeps lines as written',
      );
    }
    try {
      verdicts = await verifyDatabase(reference, database, `the database at ${redactedUrl(database.url)}`);
    } finally {
      await database.close();
    }
  } else {
    verdicts = localRuns(reference, io, values.out).map((runDir) =>
      verifyFolder(runDir, values.repair === true),
    );
  }
  const damaged = verdicts.filter((each) => each.status === 'damaged').length;
  if (values.json) {
    io.stdout.write(`${JSON.stringify(verdicts, null, 2)}\n`);
  } else {
    for (const each of verdicts) io.stdout.write(line(each));
    const unchained = verdicts.filter((each) => each.status === 'unchained').length;
    const repaired = verdicts.filter((each) => each.status === 'repaired').length;
    io.stdout.write(
      verdicts.length === 0
        ? 'No run to verify.\n'
        : `${verdicts.length} ${verdicts.length === 1 ? 'log' : 'logs'} checked: ${damaged} damaged${repaired > 0 ? `, ${repaired} repaired` : ''}${unchained > 0 ? `, ${unchained} written before events were chained (readable, not checkable)` : ''}.\n`,
    );
  }
  return damaged > 0 ? ExitCode.runCorrupt : ExitCode.ok;
}
