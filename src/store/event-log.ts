/**
 * The run's event log (`events.jsonl`): one JSON event per line, each written and flushed to disk
 * before the next step starts, so a crash loses at most the step in flight.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { ExitCode, RunError } from '../core/errors.js';
import type { RunEvent, RunEventBody } from '../core/events.js';
import { editorDamage, editorDamageText } from './editor-damage.js';
import { ChainCheck, type ChainReport, linkAfter, sealEvent } from './event-chain.js';
import { startAdvice } from './run-id.js';
import { guardStorage, storageFailure } from './storage-failure.js';

/** What to do after a failed write to the log of the run in `runDir`: nothing completed is lost. */
function adviceAfter(runDir: string, started: boolean): string {
  return started
    ? `Every step completed before it is kept in the log; once that is fixed, \`agora resume ${runDir}\` continues the run`
    : `The run never started; once that is fixed, ${startAdvice(runDir)}`;
}

export interface ReadLogResult {
  events: RunEvent[];
  /** A torn last line (power loss mid-write) that was dropped, if any. */
  droppedTornLine: boolean;
  /**
   * The last line is a whole event that lost its final newline (an editor, a copy cut short by
   * one byte): it is read, but an append must first end it.
   */
  unendedLastLine: boolean;
  /** How many lines the hash chain covers, and how many were written before it. */
  chain: ChainReport;
}

/**
 * Reads a log. A torn last line is dropped; any other bad line, or the first line that does not
 * match the hash chain, is refused with its line number. A log an editor saved with Windows line
 * endings or a byte-order mark is refused saying so, and how to undo it.
 */
export function readEventLog(file: string): ReadLogResult {
  if (!existsSync(file)) throw new RunError(`no event log at ${file}`, { exitCode: ExitCode.runCorrupt });
  const text = guardStorage(file, 'read', () => readFileSync(file, 'utf8'));
  const damage = editorDamage(text);
  if (damage !== null) {
    throw new RunError(`${file}: ${editorDamageText(damage, file, path.dirname(file))}`, {
      exitCode: ExitCode.runCorrupt,
    });
  }
  const lines = text.split('\n');
  const endsClean = text.endsWith('\n') || text === '';
  if (lines.at(-1) === '') lines.pop();
  const events: RunEvent[] = [];
  const chain = new ChainCheck();
  let droppedTornLine = false;
  let unendedLastLine = false;
  for (const [index, line] of lines.entries()) {
    const isLast = index === lines.length - 1;
    let event: RunEvent;
    try {
      event = JSON.parse(line) as RunEvent;
    } catch {
      if (isLast && !endsClean) {
        droppedTornLine = true;
        break;
      }
      throw new RunError(`${file}:${index + 1}: not a valid event (the log is damaged at this line)`, {
        exitCode: ExitCode.runCorrupt,
      });
    }
    if (
      typeof event !== 'object' ||
      event === null ||
      typeof event.type !== 'string' ||
      event.seq !== events.length
    ) {
      throw new RunError(
        `${file}:${index + 1}: unexpected event (expected sequence number ${events.length})`,
        {
          exitCode: ExitCode.runCorrupt,
        },
      );
    }
    const problem = chain.check(line, event);
    if (problem !== null) {
      throw new RunError(
        `${file}:${index + 1}: the line does not match the log's hash chain: ${problem}. \`agora verify\` checks the whole log`,
        { exitCode: ExitCode.runCorrupt },
      );
    }
    events.push(event);
    if (isLast && !endsClean) unendedLastLine = true;
  }
  return { events, droppedTornLine, unendedLastLine, chain: chain.report };
}

/** Cuts a torn last line off the file, so that appending starts on a clean line. */
export function dropTornTail(file: string): void {
  const text = guardStorage(file, 'read', () => readFileSync(file, 'utf8'));
  const end = text.lastIndexOf('\n') + 1;
  guardStorage(file, 'repair', () => truncateSync(file, Buffer.byteLength(text.slice(0, end))));
}

/** Ends a last line that is a whole event but lost its newline, so that appending starts on a clean line. */
export function endLastLine(file: string): void {
  guardStorage(file, 'repair', () => {
    const descriptor = openSync(file, 'a');
    try {
      writeSync(descriptor, '\n');
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
  });
}

/**
 * Whether the open file holds at least one whole line (an event). A log without one belongs to a
 * run that never started: a process ended before its run-start event was written, or part-way
 * through writing it.
 */
export function holdsAnEvent(descriptor: number): boolean {
  const chunk = Buffer.alloc(64 * 1024);
  for (let position = 0; ; ) {
    const read = readSync(descriptor, chunk, 0, chunk.length, position);
    if (read === 0) return false;
    if (chunk.subarray(0, read).includes(0x0a)) return true;
    position += read;
  }
}

export class EventLog {
  private readonly descriptor: number;
  private nextSeq: number;
  /**
   * The file's length, read before the first append and then advanced by each one (the run's lock
   * makes this the only writer); unknown again after a failed append.
   */
  private size: number | undefined;

  /** The next event's `prev`: the hash of the last line written. */
  private link: string;

  private constructor(
    readonly file: string,
    descriptor: number,
    nextSeq: number,
    link: string,
  ) {
    this.descriptor = descriptor;
    this.nextSeq = nextSeq;
    this.link = link;
  }

  /**
   * Opens a log for appending after `existing` events. A new run (0) may only start in an empty
   * log, or in one left by a run that never started, whose torn first line is cleared; a log that
   * holds events is never written over. `last`: the last event already there, which the next one
   * links to.
   */
  static open(file: string, existing = 0, last?: RunEvent): EventLog {
    const descriptor = guardStorage(
      file,
      'open',
      () => openSync(file, existing === 0 ? 'a+' : 'a'),
      adviceAfter(path.dirname(file), existing > 0),
    );
    if (existing === 0) {
      try {
        if (holdsAnEvent(descriptor)) {
          throw new RunError(`${file} already holds a run's events; a new run is not written over them`, {
            exitCode: ExitCode.usage,
          });
        }
        guardStorage(file, 'clear', () => ftruncateSync(descriptor, 0));
      } catch (error) {
        closeSync(descriptor);
        throw error;
      }
    }
    return new EventLog(file, descriptor, existing, existing === 0 ? '' : linkAfter(last));
  }

  append(body: RunEventBody, at: Date): RunEvent {
    const sealed = sealEvent({ seq: this.nextSeq, at: at.toISOString() }, body, this.link);
    const event = sealed.event;
    const line = Buffer.from(`${sealed.line}\n`);
    const size = this.size ?? fstatSync(this.descriptor).size;
    try {
      let written = 0;
      while (written < line.length) written += writeSync(this.descriptor, line, written);
      fsyncSync(this.descriptor);
    } catch (error) {
      this.size = undefined;
      // A half-written line (a full disk) is taken back, so the log stays readable and resumable.
      try {
        ftruncateSync(this.descriptor, size);
      } catch {
        // Nothing more can be done; a torn last line is still recoverable on resume.
      }
      throw storageFailure(
        error,
        this.file,
        'append to',
        adviceAfter(path.dirname(this.file), this.nextSeq > 0),
      );
    }
    this.size = size + line.length;
    this.nextSeq += 1;
    this.link = event.hash as string;
    return event;
  }

  close(): void {
    closeSync(this.descriptor);
  }
}
