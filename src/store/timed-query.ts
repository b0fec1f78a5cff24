/**
 * A question to the run index with a time limit. SQLite (through better-sqlite3) has no statement
 * timeout and no way to interrupt a statement from outside; a worker thread cannot be stopped
 * either while SQLite computes one row (`SELECT count(*)` over an endless `WITH RECURSIVE` never
 * returns to JavaScript). So the statement runs in a small child process of its own, killed when
 * the limit passes: the question ends with a plain message instead of running forever. The child
 * also has a memory ceiling, so a result that grows without end stops the same way, and it ends
 * with its parent (killed, terminated or hung up), never left computing on its own.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { AgoraError, ExitCode } from '../core/errors.js';
import { type QueryResult, RunIndex } from './run-index.js';

/** How long a question may run unless the caller says otherwise. */
export const QUERY_TIME_LIMIT_SECONDS = 30;

/** The most memory the process answering a question may use for its rows. */
const QUERY_MEMORY_MB = 512;

/** A question that ran past its time limit, or whose result outgrew the memory it may use. */
export class QueryLimitError extends AgoraError {
  override name = 'QueryLimitError';
  constructor(message: string) {
    super(message, { exitCode: ExitCode.usage });
  }
}

/** A statement SQLite refused, with SQLite's reason. */
export class QueryRefusedError extends AgoraError {
  override name = 'QueryRefusedError';
  constructor(reason: string) {
    super(reason, { exitCode: ExitCode.usage });
  }
}

/**
 * The longest time limit a question may have: a day. Node's timers hold at most 2^31 - 1 ms (24.8
 * days); a longer delay fires at once, so such a value is refused rather than obeyed wrongly.
 */
export const QUERY_TIME_LIMIT_MAX_SECONDS = 86_400;

// The child's own code, plain CommonJS so that it runs the same from the sources and compiled.
// SQLite computes in a worker thread, so that the child's main thread stays free to notice its
// parent going away (the IPC channel closes, or the child is handed to another parent) and end
// the child at once, whatever SQLite is doing: a question never outlives the command that asked it.
const CHILD_SOURCE = `
const { Worker } = require('node:worker_threads');
const parent = process.ppid;
const end = () => process.kill(process.pid, 'SIGKILL');
process.on('disconnect', end);
setInterval(() => { if (process.ppid !== parent) end(); }, 250);
const QUESTION = ${JSON.stringify(`
const { parentPort, workerData: request } = require('node:worker_threads');
const Database = require(request.driver);
const cell = (value) => {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  return String(value);
};
let db;
try {
  db = new Database(request.file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const statement = db.prepare(request.sql);
  if (!statement.readonly) throw new Error('only statements that read (SELECT or WITH) are allowed');
  if (!statement.reader) throw new Error('the statement returns no rows');
  statement.raw(true);
  const columns = statement.columns().map((column) => column.name);
  const rows = [];
  for (const row of statement.iterate()) rows.push(row.map(cell));
  parentPort.postMessage({ columns, rows });
} catch (error) {
  parentPort.postMessage({ refused: error instanceof Error ? error.message : String(error) });
} finally {
  if (db) db.close();
}
`)};
process.once('message', (request) => {
  const worker = new Worker(QUESTION, {
    eval: true,
    workerData: request,
    resourceLimits: { maxOldGenerationSizeMb: request.memoryMb },
  });
  worker.once('message', (answer) => {
    process.off('disconnect', end);
    process.send(answer, () => process.exit(0));
  });
  // Out of memory, or another failure: the parent reports a child that ended without an answer.
  worker.once('error', () => process.exit(1));
});
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * Runs one statement that reads on the index at `file`, in a child process that is killed after
 * `limitSeconds`. Resolves with the columns and rows; rejects with QueryRefusedError for a
 * statement SQLite refuses, QueryLimitError when the limit passes or the rows outgrow memory.
 */
export async function queryWithTimeLimit(
  file: string,
  sql: string,
  limitSeconds = QUERY_TIME_LIMIT_SECONDS,
): Promise<QueryResult> {
  if (!(limitSeconds > 0 && limitSeconds <= QUERY_TIME_LIMIT_MAX_SECONDS)) {
    throw new RangeError(
      `a query's time limit must be above 0 and at most ${QUERY_TIME_LIMIT_MAX_SECONDS} s`,
    );
  }
  // Opened here first, so that an index of an older version gains its new columns.
  RunIndex.open(file, { readonly: true }).close();
  // Not detached: Ctrl-C reaches the child with its parent, whatever SQLite is doing.
  const child = spawn(process.execPath, [`--max-old-space-size=${QUERY_MEMORY_MB}`, '-e', CHILD_SOURCE], {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    serialization: 'advanced',
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<QueryResult>((resolve, reject) => {
      timer = setTimeout(() => {
        reject(
          new QueryLimitError(
            `the query ran for ${limitSeconds} s, its time limit, and was stopped; a recursive query needs a condition that ends it, and a large result a LIMIT; give it more time with --timeout SECONDS`,
          ),
        );
      }, limitSeconds * 1000);
      child.once('message', (message: QueryResult | { refused: string }) => {
        if ('refused' in message) reject(new QueryRefusedError(message.refused));
        else resolve(message);
      });
      child.once('error', reject);
      // 'close' comes after every message the child sent: only a child that ended without
      // answering gets here before the promise is settled.
      child.once('close', (code, signal) => {
        reject(
          new QueryLimitError(
            `the query stopped without an answer (${signal ?? `exit code ${code}`}): its result most likely grew past the ${QUERY_MEMORY_MB} MB it may use; add a LIMIT, or a condition that ends a recursive query`,
          ),
        );
      });
      child.send({ file, sql, driver, memoryMb: QUERY_MEMORY_MB });
    });
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
