/**
 * A local copy of the shared database's runs: each run's folder holds its committed events, as
 * the exact lines the database keeps, and the transcripts rendered from them, byte for byte what
 * the worker that drove it wrote. The read-side commands (`runs`, `show`, `leaderboard`, `query`,
 * `export`, `serve`) work on such a copy, so they give the same answers for the database as for
 * files. `agora pull` makes one where the user says.
 *
 * A run the database shows as driven by a live worker is marked live in its copy (the copying
 * process holds its lock while it keeps the copy current), so no view takes it for interrupted.
 */

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { isSimulated } from '../core/events.js';
import { formatNamed } from '../formats/index.js';
import { positionAfter } from '../store/log-position.js';
import { type DatabaseRunRow, EVENTS_CHANNEL, type RunDatabase } from '../store/postgres/run-database.js';
import { LOCK_FILE, lockOwner } from '../store/run-lock.js';
import { writeFileAtomic } from '../store/write-files.js';
import { loadRun, runPaths, writeTranscripts } from './debate-manager.js';
import { BATCHES_FOLDER, indexRuns, rebuildIndex } from './indexing.js';

export interface MirrorResult {
  /** Runs whose copy changed. */
  changed: string[];
  /** Every run in the database, with its row. */
  rows: DatabaseRunRow[];
}

function committedLines(file: string): number {
  if (!existsSync(file)) return 0;
  const text = readFileSync(file, 'utf8');
  return text === '' ? 0 : text.split('\n').length - 1;
}

/** Brings one run's copy up to date; true when it changed. */
export async function mirrorRun(
  database: RunDatabase,
  row: DatabaseRunRow,
  dir: string,
  options: { markLive?: boolean } = {},
): Promise<boolean> {
  const paths = runPaths(path.join(dir, row.runId));
  // A folder another live process is writing (a debate started or resumed here) is its to keep.
  const writer = lockOwner(paths.runDir);
  if (writer !== null && writer !== process.pid) return false;
  const held = committedLines(paths.events);
  let changed = false;
  if (held !== row.nextSeq) {
    // A copy is only ever behind the database, never ahead: a longer one is rebuilt whole.
    const lines = held < row.nextSeq ? await database.lines(row.runId, held) : null;
    if (lines === null || held === 0) {
      const all = lines ?? (await database.lines(row.runId));
      rmSync(paths.runDir, { recursive: true, force: true });
      if (all.length > 0) {
        mkdirSync(paths.runDir, { recursive: true });
        writeFileAtomic(paths.events, `${all.join('\n')}\n`);
      }
    } else if (lines.length > 0) {
      writeFileSync(paths.events, `${lines.join('\n')}\n`, { flag: 'a' });
    }
    if (existsSync(paths.events)) {
      const loaded = loadRun(paths.runDir, formatNamed);
      writeTranscripts(loaded.format, paths, loaded.state, {
        simulated: isSimulated(loaded.events),
        position: positionAfter(loaded.events.at(-1)),
      });
    }
    changed = true;
  }
  if (existsSync(paths.runDir)) {
    const lock = path.join(paths.runDir, LOCK_FILE);
    if (options.markLive !== false && row.status === 'running' && row.owner !== null) {
      writeFileSync(lock, `${process.pid}\n`);
    } else rmSync(lock, { force: true });
  }
  return changed;
}

/** Writes the records of the batches the copied runs belong to, as the batch's own plan.json. */
async function mirrorBatches(database: RunDatabase, rows: DatabaseRunRow[], dir: string): Promise<void> {
  const wanted = new Set(rows.map((row) => row.batchId).filter((batchId) => batchId !== null));
  for (const { batchId, record } of await database.batches()) {
    if (!wanted.has(batchId)) continue;
    const folder = path.join(dir, BATCHES_FOLDER, batchId);
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, 'plan.json');
    if (!existsSync(file) || readFileSync(file, 'utf8') !== record) writeFileAtomic(file, record);
  }
}

/** Brings the copy in `dir` up to date with the database (only `runIds`, when given). */
export async function mirrorDatabase(
  database: RunDatabase,
  dir: string,
  options: { runIds?: string[]; markLive?: boolean } = {},
): Promise<MirrorResult> {
  mkdirSync(dir, { recursive: true });
  const rows = await database.runs(options.runIds);
  const changed: string[] = [];
  for (const row of rows) {
    if (await mirrorRun(database, row, dir, options)) changed.push(row.runId);
  }
  await mirrorBatches(database, rows, dir);
  return { changed, rows };
}

/**
 * Keeps the copy in `dir` current while the process lives (`serve --database`): one LISTEN on the
 * channel every commit notifies, and each notified run's new events fetched and rendered. The
 * viewer reads the copy; no client polls the database.
 */
export async function startLiveMirror(
  database: RunDatabase,
  dir: string,
  onError: (error: unknown) => void,
): Promise<{ close(): Promise<void> }> {
  const listener = new pg.Client({ connectionString: database.url });
  listener.on('error', onError);
  try {
    await listener.connect();
    await listener.query(`LISTEN ${EVENTS_CHANNEL}`);
  } catch (error) {
    await listener.end().catch(() => undefined);
    throw database.failure(error);
  }
  const pending = new Set<string>();
  let draining = false;
  const drain = async () => {
    if (draining) return;
    draining = true;
    try {
      while (pending.size > 0) {
        // Only the notified runs' rows, not every run's: this runs on each commit anywhere.
        const wanted = [...pending];
        pending.clear();
        const rows = await database.runs(wanted);
        for (const row of rows) {
          if (await mirrorRun(database, row, dir)) {
            indexRuns(dir, [path.join(dir, row.runId)], formatNamed);
          }
        }
      }
    } catch (error) {
      onError(error);
    } finally {
      draining = false;
    }
  };
  listener.on('notification', (message) => {
    const runId = message.payload?.split(' ')[0];
    if (!runId) return;
    pending.add(runId);
    void drain();
  });
  // Notifications sent before the LISTEN began are caught up with by a full pass.
  await mirrorDatabase(database, dir);
  const { index } = rebuildIndex(dir, formatNamed);
  index.close();
  return {
    async close() {
      await listener.end().catch(() => undefined);
    },
  };
}
