/**
 * The run index (`<runs folder>/index.sqlite`): every run's summary, turns, evaluations,
 * judgements and rotations, councils' turns, actions and decisions (with the views `debate_runs`,
 * `debate_turns` and `debate_actions` over them), and the batches, in SQLite for querying. The event logs stay the
 * source of truth; `agora reindex` rebuilds the index from them.
 *
 * The index is an ordinary SQLite file opened through better-sqlite3 in WAL mode: a change writes
 * only the pages it touches, so memory stays flat however many runs the index holds, readers never
 * wait for a writer, and several processes finishing runs at once queue on SQLite's own lock.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ExitCode, RunError } from '../core/errors.js';
import type { Row, SqlValue } from './index-row.js';
import type { IndexRows } from './index-rows.js';

export const INDEX_FILE = 'index.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY, run_dir TEXT, batch_id TEXT, scenario_file TEXT, format TEXT, topic TEXT,
  seed INTEGER, models TEXT, status TEXT, stop_reason TEXT, error TEXT, started_at TEXT, updated_at TEXT,
  active_ms INTEGER, prompt_tokens INTEGER, output_tokens INTEGER, model_calls INTEGER, done INTEGER, total INTEGER,
  failed_steps INTEGER DEFAULT 0, outcome TEXT, simulated INTEGER DEFAULT 0);
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
CREATE TABLE IF NOT EXISTS council_decisions (
  run_id TEXT PRIMARY KEY, packet_run_id TEXT, consensus_score REAL, confidence_score REAL, majority_stance TEXT,
  selected_option TEXT, finished_at TEXT, decision_record TEXT);
CREATE TABLE IF NOT EXISTS answer_checks (
  run_id TEXT, seq INTEGER, kind TEXT, agent TEXT, model TEXT, unusable INTEGER, cut_at_cap INTEGER, not_json INTEGER,
  wrong_fields INTEGER, gave_up INTEGER, call_failed INTEGER, contradictions INTEGER, unverified INTEGER,
  clamped INTEGER DEFAULT 0, near_matched INTEGER DEFAULT 0, PRIMARY KEY (run_id, seq));
CREATE TABLE IF NOT EXISTS batches (batch_id TEXT PRIMARY KEY, created_at TEXT, plan TEXT, debates INTEGER);
CREATE TABLE IF NOT EXISTS batch_runs (batch_id TEXT, idx INTEGER, run_id TEXT, scenario_file TEXT, seed INTEGER, lineup TEXT,
  PRIMARY KEY (batch_id, idx));
`;

/**
 * Seed 003's three questions, asked directly: councils with their scores and selected option, their
 * turns, their next actions. Views over the tables above, so they need no filling of their own.
 */
const VIEWS = `
CREATE VIEW IF NOT EXISTS debate_runs AS
  SELECT r.run_id, COALESCE(d.packet_run_id, r.run_id) AS packet_run_id, r.topic AS problem, r.status,
    r.stop_reason, r.models, d.consensus_score, d.confidence_score, d.majority_stance, d.selected_option,
    r.started_at, COALESCE(d.finished_at, r.updated_at) AS finished_at, r.run_dir, d.decision_record, r.batch_id
  FROM runs r LEFT JOIN council_decisions d ON d.run_id = r.run_id WHERE r.format = 'council';
CREATE VIEW IF NOT EXISTS debate_turns AS
  SELECT run_id, round, role, model, claim, challenges AS challenge, revision, stance, abstained, seq
  FROM council_turns;
CREATE VIEW IF NOT EXISTS debate_actions AS
  SELECT run_id, id AS action_id, action, owner, due, status FROM actions;
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
  'council_decisions',
  'answer_checks',
  'batches',
  'batch_runs',
] as const;

/** The tables that hold one run's rows, all keyed by `run_id`. */
const RUN_TABLES = INDEX_TABLES.filter((table) => table !== 'batches' && table !== 'batch_runs');

/** How long a writer waits for another process's write to finish before giving up. */
const BUSY_TIMEOUT_MS = 30_000;

export interface QueryResult {
  columns: string[];
  rows: SqlValue[][];
}

function cell(value: unknown): SqlValue {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  return String(value);
}

/** Columns added to `runs` after its first version, each with its default for older rows. */
const ADDED_RUN_COLUMNS = [
  // Failed steps (reindex fills them in).
  ['failed_steps', 'INTEGER DEFAULT 0'],
  // The mark of runs on the built-in simulator; logs written before it existed have none.
  ['simulated', 'INTEGER DEFAULT 0'],
  // The one-line outcome shown by the runs page.
  ['outcome', 'TEXT'],
] as const;

/** Columns added to `answer_checks` after its first version. */
const ADDED_CHECK_COLUMNS = [
  // Numbers outside their bounds, held to them (reindex fills them in).
  ['clamped', 'INTEGER DEFAULT 0'],
  // Claims kept whose quote matched with one word changed, left out or added.
  ['near_matched', 'INTEGER DEFAULT 0'],
] as const;

function missingIn(db: Database.Database, table: string, added: ReadonlyArray<readonly [string, string]>) {
  const columns = db.pragma(`table_info(${table})`) as Array<{ name: string }>;
  // An index without the table yet gets the whole schema on its first write.
  if (columns.length === 0) return [];
  return added
    .filter(([name]) => !columns.some((column) => column.name === name))
    .map(([name, type]) => ({ table, name, type }));
}

function missingColumns(db: Database.Database) {
  return [
    ...missingIn(db, 'runs', ADDED_RUN_COLUMNS),
    ...missingIn(db, 'answer_checks', ADDED_CHECK_COLUMNS),
  ];
}

/** An index written by an earlier version gains the columns added since. */
function addMissingColumns(db: Database.Database) {
  for (const { table, name, type } of missingColumns(db))
    db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
}

export class RunIndex {
  private constructor(
    private readonly db: Database.Database,
    readonly file: string,
  ) {}

  /**
   * Opens (creating when missing) the index at `file`. `readonly` opens an existing index for
   * questions only: SQLite itself then refuses any statement that would write.
   */
  static open(file: string, options: { readonly?: boolean } = {}): RunIndex {
    let db: Database.Database | undefined;
    try {
      db = new Database(file, {
        readonly: options.readonly ?? false,
        fileMustExist: options.readonly ?? false,
      });
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      if (!options.readonly) {
        db.pragma('journal_mode = WAL');
        // The index can always be rebuilt from the logs: a commit need not wait for the disk.
        db.pragma('synchronous = NORMAL');
        db.exec(SCHEMA);
        addMissingColumns(db);
        db.exec(VIEWS);
      } else if (missingColumns(db).length > 0) {
        // An older index is brought up to date once, so that readers can ask for every column.
        db.close();
        RunIndex.open(file).close();
        db = new Database(file, { readonly: true, fileMustExist: true });
        db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
    } catch (error) {
      db?.close();
      throw new RunError(
        `the run index ${file} could not be opened (${(error as Error).message}); \`agora reindex\` rebuilds it from the event logs`,
        { exitCode: ExitCode.runFailed },
      );
    }
    return new RunIndex(db, file);
  }

  /** Replaces everything the index holds about these runs, in one transaction. */
  putRuns(runs: readonly IndexRows[]): void {
    this.write(() => {
      for (const rows of runs) this.writeRun(rows);
    });
  }

  /** Forgets a run (its log can no longer be read: a rebuilt index would not hold it either). */
  removeRun(runId: string): void {
    this.write(() => {
      for (const table of RUN_TABLES) this.db.prepare(`DELETE FROM ${table} WHERE run_id = ?`).run(runId);
    });
  }

  putBatch(batch: { batchId: string; createdAt: string; plan: unknown; runs: Row[] }): void {
    this.write(() => this.writeBatch(batch));
  }

  /**
   * Empties the index and fills it again through `fill`, in one transaction: readers see the old
   * index until the new one is complete, and a failure leaves the old one in place.
   */
  replaceAll(fill: (sink: IndexSink) => void): void {
    this.write(() => {
      for (const table of INDEX_TABLES) this.db.exec(`DROP TABLE IF EXISTS ${table}`);
      this.db.exec(SCHEMA);
      this.db.exec(VIEWS);
      fill({ putRun: (rows) => this.writeRun(rows), putBatch: (batch) => this.writeBatch(batch) });
    });
  }

  /** One write transaction, taken at once so that two writers queue instead of deadlocking. */
  private write(change: () => void): void {
    try {
      this.db.transaction(change).immediate();
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') {
        throw new RunError(
          `the run index ${this.file} stayed locked by another process for ${BUSY_TIMEOUT_MS / 1000} s; try again when it finishes`,
          { exitCode: ExitCode.runLocked, cause: error },
        );
      }
      throw error;
    }
  }

  private writeRun(rows: IndexRows): void {
    const runId = rows.run.run_id as string;
    for (const table of RUN_TABLES) this.db.prepare(`DELETE FROM ${table} WHERE run_id = ?`).run(runId);
    this.insert('runs', [rows.run]);
    this.insert('turns', rows.turns);
    this.insert('evaluations', rows.evaluations);
    this.insert('judgements', rows.judgements);
    this.insert('rotations', rows.rotations);
    this.insert('rounds', rows.rounds);
    this.insert('council_turns', rows.councilTurns);
    this.insert('actions', rows.actions);
    this.insert('council_decisions', rows.councilDecisions);
    this.insert('answer_checks', rows.answerChecks);
  }

  private writeBatch(batch: { batchId: string; createdAt: string; plan: unknown; runs: Row[] }): void {
    this.db.prepare('DELETE FROM batches WHERE batch_id = ?').run(batch.batchId);
    this.db.prepare('DELETE FROM batch_runs WHERE batch_id = ?').run(batch.batchId);
    this.insert('batches', [
      {
        batch_id: batch.batchId,
        created_at: batch.createdAt,
        plan: JSON.stringify(batch.plan),
        debates: batch.runs.length,
      },
    ]);
    this.insert('batch_runs', batch.runs);
  }

  private insert(table: string, rows: Row[]): void {
    const first = rows[0];
    if (!first) return;
    const columns = Object.keys(first);
    const statement = this.db.prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    for (const row of rows) statement.run(columns.map((column) => row[column] ?? null));
  }

  /** Whether `sql` is one statement that only reads (SQLite's own judgement, not a pattern). */
  readsOnly(sql: string): boolean {
    return this.db.prepare(sql).readonly;
  }

  query(sql: string, params: SqlValue[] = []): QueryResult {
    const statement = this.db.prepare(sql);
    if (!statement.reader) throw new Error('the statement returns no rows');
    statement.raw(true);
    const columns = statement.columns().map((column) => column.name);
    const rows = (statement.all(params) as unknown[][]).map((row) => row.map(cell));
    return { columns, rows };
  }

  /** Every table's rows in a fixed order, to compare two indexes. */
  dump(): Record<string, SqlValue[][]> {
    return Object.fromEntries(
      INDEX_TABLES.map((table) => [table, this.query(`SELECT * FROM ${table} ORDER BY 1, 2`).rows]),
    );
  }

  close(): void {
    this.db.close();
  }
}

/** Where a full rebuild puts its rows. */
export interface IndexSink {
  putRun(rows: IndexRows): void;
  putBatch(batch: { batchId: string; createdAt: string; plan: unknown; runs: Row[] }): void;
}

/**
 * Opens the runs folder's index, applies `change` and closes it again. The folder is made when
 * missing: a council kept in its records folder may be the first run the runs folder indexes.
 */
export function updateIndex(outDir: string, change: (index: RunIndex) => void): void {
  mkdirSync(outDir, { recursive: true });
  const index = RunIndex.open(path.join(outDir, INDEX_FILE));
  try {
    change(index);
  } finally {
    index.close();
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
