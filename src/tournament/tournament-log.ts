/**
 * The tournament's own log (`tournament.jsonl` in its folder): one JSON entry a line, each written
 * and flushed to disk before the tournament goes on. It holds what was asked, the matches as they
 * are planned, each debate's run id as it starts and its outcome as it ends. The tournament's state
 * is a fold over it; a torn last line (a kill mid-write) is dropped and cut off before appending.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { TournamentMatch } from '../analytics/tournament-match.js';
import { ExitCode, RunError } from '../core/errors.js';
import { guardStorage } from '../store/storage-failure.js';
import type { PlannedMatch, TournamentSpec } from './tournament-plan.js';

export const TOURNAMENT_LOG = 'tournament.jsonl';

/** How a debate of the tournament ended, as its run's status says. */
export type DebateStatus = 'completed' | 'degraded' | 'failed';

export type TournamentEntry =
  | {
      type: 'tournament-start';
      at: string;
      id: string;
      spec: TournamentSpec;
      /** The motions file as named, for messages. */
      motionsFile: string;
      /** Every debate runs on the built-in simulator. */
      simulated: boolean;
      /** What the user was told about the plan (a weaker judge rule), kept with it. */
      notices: string[];
      /**
       * The shared database the debates are queued in (`--database`), its password left out;
       * absent when this process runs them.
       */
      database?: string;
    }
  | { type: 'matches-planned'; at: string; matches: PlannedMatch[] }
  /** Sent to the shared database's queue (`--database`), for the workers. */
  | { type: 'debate-queued'; at: string; index: number; runId: string }
  | { type: 'debate-start'; at: string; index: number; runId: string }
  | {
      type: 'debate-end';
      at: string;
      index: number;
      runId: string;
      status: DebateStatus;
      /** Who won and why, in the run's own sentence. */
      result: string | null;
      error: string | null;
      /** The debate as the standings read it; null when its transcript could not be read. */
      match: TournamentMatch | null;
      /** Output tokens the debate's calls produced, as the server counted them. */
      outputTokens: number;
    };

/** A tournament as its log tells it. */
export interface TournamentState {
  start: Extract<TournamentEntry, { type: 'tournament-start' }>;
  planned: PlannedMatch[];
  /** Run ids of debates started at least once. */
  started: Set<string>;
  /** Run ids of debates sent to the shared database's queue. */
  queued: Set<string>;
  /** Debates that ended by run id: finished, or failed on a worker of the shared database. */
  ended: Map<string, Extract<TournamentEntry, { type: 'debate-end' }>>;
}

export const tournamentLogFile = (folder: string) => path.join(folder, TOURNAMENT_LOG);

/** Reads the log's entries; a torn last line is dropped, any other bad line refused with its number. */
export function readTournamentLog(folder: string): { entries: TournamentEntry[]; tornTail: boolean } {
  const file = tournamentLogFile(folder);
  const text = guardStorage(file, 'read', () => readFileSync(file, 'utf8'));
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const entries: TournamentEntry[] = [];
  let tornTail = false;
  for (const [index, line] of lines.entries()) {
    try {
      const entry = JSON.parse(line) as TournamentEntry;
      if (typeof entry !== 'object' || entry === null || typeof entry.type !== 'string')
        throw new Error('no type');
      entries.push(entry);
    } catch {
      if (index === lines.length - 1 && !text.endsWith('\n')) {
        tornTail = true;
        break;
      }
      throw new RunError(
        `${file}:${index + 1}: not a tournament log entry (the log is damaged at this line)`,
        {
          exitCode: ExitCode.runCorrupt,
        },
      );
    }
  }
  return { entries, tornTail };
}

export function foldTournament(entries: readonly TournamentEntry[], file: string): TournamentState {
  const [first] = entries;
  if (first?.type !== 'tournament-start')
    throw new RunError(`${file} does not start with the tournament's plan; it is not a tournament log`, {
      exitCode: ExitCode.runCorrupt,
    });
  const state: TournamentState = {
    start: first,
    planned: [],
    started: new Set(),
    queued: new Set(),
    ended: new Map(),
  };
  for (const entry of entries.slice(1)) {
    if (entry.type === 'matches-planned') state.planned.push(...entry.matches);
    else if (entry.type === 'debate-start') state.started.add(entry.runId);
    else if (entry.type === 'debate-queued') state.queued.add(entry.runId);
    else if (entry.type === 'debate-end') {
      // A debate that failed here is run again (resumed from its own log) the next time; one that
      // failed on a worker stays failed until `agora resume RUN --database URL` continues it.
      if (entry.status === 'failed' && !first.database) state.ended.delete(entry.runId);
      else state.ended.set(entry.runId, entry);
    }
  }
  return state;
}

/** Whether `folder` holds a tournament log. */
export const holdsTournament = (folder: string) => existsSync(tournamentLogFile(folder));

/** Appends entries to a tournament's log, each flushed before the call returns. */
export class TournamentLog {
  private constructor(
    readonly file: string,
    private readonly descriptor: number,
  ) {}

  /** Opens the log for appending, cutting a torn last line off first. */
  static open(folder: string): TournamentLog {
    const file = tournamentLogFile(folder);
    if (existsSync(file)) {
      const text = guardStorage(file, 'read', () => readFileSync(file, 'utf8'));
      if (text !== '' && !text.endsWith('\n')) {
        const keep = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
        guardStorage(file, 'repair', () => truncateSync(file, keep));
      }
    }
    return new TournamentLog(
      file,
      guardStorage(file, 'open', () => openSync(file, 'a')),
    );
  }

  append(entry: TournamentEntry): void {
    guardStorage(this.file, 'append to', () => {
      writeSync(this.descriptor, `${JSON.stringify(entry)}\n`);
      fsyncSync(this.descriptor);
    });
  }

  close(): void {
    closeSync(this.descriptor);
  }
}
