/**
 * The run index (`<runs folder>/index.sqlite`): every run's summary, turns, evaluations,
 * judgements and rotations, and the batches, in SQLite for querying. The event logs stay the
 * source of truth; `agora reindex` rebuilds the index from them.
 *
 * SQLite comes from sql.js (WebAssembly): no native build, so it installs anywhere npm does. The
 * database is read into memory, changed, and written back whole under a short lock.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import { ExitCode, RunError } from '../core/errors.js';
import type { IndexRows, Row, SqlValue } from './index-rows.js';
import { writeFileAtomic } from './write-files.js';

export const INDEX_FILE = 'index.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY, run_dir TEXT, batch_id TEXT, scenario_file TEXT, format TEXT, topic TEXT,
  seed INTEGER, models TEXT, status TEXT, stop_reason TEXT, error TEXT, started_at TEXT, updated_at TEXT,
  active_ms INTEGER, prompt_tokens INTEGER, output_tokens INTEGER, model_calls INTEGER, done INTEGER, total INTEGER);
CREATE TABLE IF NOT EXISTS turns (
  run_id TEXT, seq INTEGER, round INTEGER, phase TEXT, agent TEXT, position TEXT, model TEXT,
  prompt_tokens INTEGER, output_tokens INTEGER, simulated_seconds REAL, truncated INTEGER, degraded INTEGER,
  fallback_from TEXT, PRIMARY KEY (run_id, seq));
CREATE TABLE IF NOT EXISTS evaluations (
  run_id TEXT, seq INTEGER, round INTEGER, judge TEXT, judge_model TEXT, subject TEXT, subject_model TEXT,
  scores TEXT, weighted_total REAL, vote TEXT, new_arguments INTEGER, abstained INTEGER, PRIMARY KEY (run_id, seq));
CREATE TABLE IF NOT EXISTS judgements (
  run_id TEXT, seq INTEGER, round INTEGER, phase TEXT, judge TEXT, judge_model TEXT, winner TEXT,
  no_new_arguments INTEGER, abstained INTEGER, result TEXT, a_model TEXT, b_model TEXT, PRIMARY KEY (run_id, seq));
CREATE TABLE IF NOT EXISTS rounds (
  run_id TEXT, round INTEGER, debater TEXT, debater_model TEXT, x_model TEXT, decision TEXT, decided_by TEXT, outcome TEXT,
  rotate_votes INTEGER, continue_votes INTEGER, abstentions INTEGER, mean_score REAL, PRIMARY KEY (run_id, round));
CREATE TABLE IF NOT EXISTS rotations (
  run_id TEXT, after_round INTEGER, from_agent TEXT, to_agent TEXT, rotate_votes INTEGER, PRIMARY KEY (run_id, after_round));
CREATE TABLE IF NOT EXISTS council_turns (
  run_id TEXT, seq INTEGER, round INTEGER, role TEXT, model TEXT, claim TEXT, challenges TEXT, revision TEXT, stance TEXT,
  abstained INTEGER, PRIMARY KEY (run_id, seq));
CREATE TABLE IF NOT EXISTS actions (
  run_id TEXT, id TEXT, action TEXT, owner TEXT, due TEXT, status TEXT, PRIMARY KEY (run_id, id));
CREATE TABLE IF NOT EXISTS batches (batch_id TEXT PRIMARY KEY, created_at TEXT, plan TEXT, debates INTEGER);
CREATE TABLE IF NOT EXISTS batch_runs (batch_id TEXT, idx INTEGER, run_id TEXT, scenario_file TEXT, seed INTEGER, lineup TEXT,
  PRIMARY KEY (batch_id, idx));
`;

export const INDEX_TABLES = [
  'runs',
  'turns',
  'evaluations',
  'judgements',
  'rotations',
  'rounds',
  'council_turns',
  'actions',
  'batches',
  'batch_runs',
] as const;

/**
 * A fresh SQLite module for each open index: a WebAssembly module's memory only ever grows, so a
 * shared one would keep the largest index ever opened; a fresh one is freed with the index.
 */
const loadSqlJs = (): Promise<SqlJsStatic> => initSqlJs();

export interface QueryResult {
  columns: string[];
  rows: SqlValue[][];
}

export class RunIndex {
  private constructor(
    private readonly db: Database,
    readonly file: string,
  ) {}

  static async open(file: string, options: { fresh?: boolean } = {}): Promise<RunIndex> {
    const SQL = await loadSqlJs();
    const db = !options.fresh && existsSync(file) ? new SQL.Database(readFileSync(file)) : new SQL.Database();
    db.run(SCHEMA);
    return new RunIndex(db, file);
  }

  /** Replaces everything the index holds about one run. */
  putRun(rows: IndexRows): void {
    const runId = rows.run.run_id as string;
    this.db.run('BEGIN');
    for (const table of [
      'runs',
      'turns',
      'evaluations',
      'judgements',
      'rotations',
      'rounds',
      'council_turns',
      'actions',
    ]) {
      this.db.run(`DELETE FROM ${table} WHERE run_id = ?`, [runId]);
    }
    this.insert('runs', [rows.run]);
    this.insert('turns', rows.turns);
    this.insert('evaluations', rows.evaluations);
    this.insert('judgements', rows.judgements);
    this.insert('rotations', rows.rotations);
    this.insert('rounds', rows.rounds);
    this.insert('council_turns', rows.councilTurns);
    this.insert('actions', rows.actions);
    this.db.run('COMMIT');
  }

  putBatch(batch: { batchId: string; createdAt: string; plan: unknown; runs: Row[] }): void {
    this.db.run('BEGIN');
    this.db.run('DELETE FROM batches WHERE batch_id = ?', [batch.batchId]);
    this.db.run('DELETE FROM batch_runs WHERE batch_id = ?', [batch.batchId]);
    this.insert('batches', [
      {
        batch_id: batch.batchId,
        created_at: batch.createdAt,
        plan: JSON.stringify(batch.plan),
        debates: batch.runs.length,
      },
    ]);
    this.insert('batch_runs', batch.runs);
    this.db.run('COMMIT');
  }

  private insert(table: string, rows: Row[]): void {
    const first = rows[0];
    if (!first) return;
    const columns = Object.keys(first);
    const statement = this.db.prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    try {
      for (const row of rows) statement.run(columns.map((column) => row[column] ?? null));
    } finally {
      statement.free();
    }
  }

  query(sql: string, params: SqlValue[] = []): QueryResult {
    const statement = this.db.prepare(sql);
    try {
      statement.bind(params);
      const rows: SqlValue[][] = [];
      while (statement.step()) rows.push(statement.get() as SqlValue[]);
      return { columns: statement.getColumnNames(), rows };
    } finally {
      statement.free();
    }
  }

  /** Every table's rows in a fixed order, to compare two indexes. */
  dump(): Record<string, SqlValue[][]> {
    return Object.fromEntries(
      INDEX_TABLES.map((table) => [table, this.query(`SELECT * FROM ${table} ORDER BY 1, 2`).rows]),
    );
  }

  save(): void {
    writeFileAtomic(this.file, Buffer.from(this.db.export()));
  }

  close(): void {
    this.db.close();
  }
}

/**
 * Opens the index under a short lock, applies `change`, saves and closes it, so that several
 * processes finishing runs at once do not overwrite each other's rows.
 */
export async function updateIndex(outDir: string, change: (index: RunIndex) => void): Promise<void> {
  const file = path.join(outDir, INDEX_FILE);
  const lock = `${file}.lock`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const descriptor = openSync(lock, 'wx');
      writeSync(descriptor, `${process.pid}\n`);
      closeSync(descriptor);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left by a process that died (killed mid-update) is taken over.
      if (!holderAlive(lock)) {
        rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new RunError(
          `the run index ${file} stayed locked; if no agora process is running, delete ${lock}`,
          {
            exitCode: ExitCode.runLocked,
          },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  try {
    const index = await RunIndex.open(file);
    try {
      change(index);
      index.save();
    } finally {
      index.close();
    }
  } finally {
    rmSync(lock, { force: true });
  }
}

function holderAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(lock, 'utf8').trim());
  } catch {
    return true; // Just created by someone else and not written yet: wait for it.
  }
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Run folders under `outDir` (those with an event log), sorted by name. */
export function runFolders(outDir: string): string[] {
  if (!existsSync(outDir)) return [];
  return readdirSync(outDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(outDir, entry.name, 'events.jsonl')))
    .map((entry) => path.join(outDir, entry.name))
    .sort();
}
