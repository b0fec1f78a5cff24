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
  truncateSync,
  writeSync,
} from 'node:fs';
import { ExitCode, RunError } from '../core/errors.js';
import type { RunEvent, RunEventBody } from '../core/events.js';

export interface ReadLogResult {
  events: RunEvent[];
  /** A torn last line (power loss mid-write) that was dropped, if any. */
  droppedTornLine: boolean;
}

/** Reads a log. A torn last line is dropped; any other bad line is refused with its line number. */
export function readEventLog(file: string): ReadLogResult {
  if (!existsSync(file)) throw new RunError(`no event log at ${file}`, { exitCode: ExitCode.runCorrupt });
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const endsClean = text.endsWith('\n') || text === '';
  if (lines.at(-1) === '') lines.pop();
  const events: RunEvent[] = [];
  let droppedTornLine = false;
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
    events.push(event);
  }
  return { events, droppedTornLine };
}

/** Cuts a torn last line off the file, so that appending starts on a clean line. */
export function dropTornTail(file: string): void {
  const text = readFileSync(file, 'utf8');
  const end = text.lastIndexOf('\n') + 1;
  truncateSync(file, Buffer.byteLength(text.slice(0, end)));
}

export class EventLog {
  private readonly descriptor: number;
  private nextSeq: number;
  /**
   * The file's length, read before the first append and then advanced by each one (the run's lock
   * makes this the only writer); unknown again after a failed append.
   */
  private size: number | undefined;

  private constructor(
    readonly file: string,
    descriptor: number,
    nextSeq: number,
  ) {
    this.descriptor = descriptor;
    this.nextSeq = nextSeq;
  }

  /** Opens a log for appending after `existing` events (0 for a new run). */
  static open(file: string, existing = 0): EventLog {
    return new EventLog(file, openSync(file, 'a'), existing);
  }

  append(body: RunEventBody, at: Date): RunEvent {
    const event = { seq: this.nextSeq, at: at.toISOString(), ...body } as RunEvent;
    const line = Buffer.from(`${JSON.stringify(event)}\n`);
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
      throw error;
    }
    this.size = size + line.length;
    this.nextSeq += 1;
    return event;
  }

  close(): void {
    closeSync(this.descriptor);
  }
}
