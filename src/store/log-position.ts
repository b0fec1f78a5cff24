/**
 * A log's position: the sequence number and hash of its last event. A file derived from the log
 * (transcript.json, transcript.md) records the position it was made from, so whether it is behind
 * the log is decided by what both say, not by file times: those advance in steps of a few
 * milliseconds, and a copy (`cp -r`, `tar`) gives them anew or rounds them to the second.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { RunEvent } from '../core/events.js';
import { linkAfter } from './event-chain.js';

export interface LogPosition {
  /** The last event's sequence number. */
  seq: number;
  /** The last event's hash (for a line written before the chain, the hash of its text). */
  hash: string;
}

/** The position of a log whose last event is `last` (null for a log without events). */
export function positionAfter(last: RunEvent | undefined): LogPosition | null {
  return last === undefined ? null : { seq: last.seq, hash: linkAfter(last) };
}

export function samePosition(a: LogPosition | null, b: LogPosition | null): boolean {
  return a !== null && b !== null && a.seq === b.seq && a.hash === b.hash;
}

/** Up to `length` bytes of a file, ending at its end. */
function tail(descriptor: number, size: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const got = readSync(descriptor, buffer, read, length - read, size - length + read);
    if (got === 0) break;
    read += got;
  }
  return buffer.subarray(0, read);
}

function parsed(line: string): RunEvent | null {
  try {
    const event = JSON.parse(line) as RunEvent;
    return typeof event === 'object' && event !== null && typeof event.seq === 'number' ? event : null;
  } catch {
    return null;
  }
}

/** `read` on the open file and its size; null when the file cannot be opened. The file is closed after. */
function fromFileEnd(
  file: string,
  read: (descriptor: number, size: number) => LogPosition | null,
): LogPosition | null {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    return read(descriptor, fstatSync(descriptor).size);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * The position of the log in `file`, read from its end as every reader reads it: a last line
 * without its newline counts when it is a whole event, and is left out when it is torn. Null when
 * the log holds no event, or its last line is not one (a damaged log is for a full read to name).
 */
export function logPosition(file: string): LogPosition | null {
  return fromFileEnd(file, (descriptor, size) => {
    for (let length = Math.min(size, 64 * 1024); ; length = Math.min(size, length * 4)) {
      const bytes = tail(descriptor, size, length);
      const whole = length === size;
      // The last two lines are enough: the last, and the one before it when the last is torn.
      const lines = bytes.toString('utf8').split('\n');
      const terminated = lines.at(-1) === '';
      if (terminated) lines.pop();
      // The first piece may begin in the middle of a line (or of a character): it counts only
      // when the read reached the start of the file.
      if (!whole && lines.length < 3) continue;
      const last = lines.at(-1);
      if (last === undefined) return null;
      if (terminated) return positionAfter(parsed(last) ?? undefined);
      const event = parsed(last);
      if (event) return positionAfter(event);
      const before = lines.at(-2);
      return before === undefined ? null : positionAfter(parsed(before) ?? undefined);
    }
  });
}

/** The member transcript.json ends with (its last, so it is read from the file's end). */
export const JSON_POSITION_MEMBER = 'logPosition';

/** The last line of transcript.md: a comment, which a Markdown reader does not show. */
export function markdownPositionNote(position: LogPosition | null): string {
  return position === null
    ? ''
    : `<!-- made from events.jsonl up to event ${position.seq}, hash ${position.hash} -->\n`;
}

const RECORDED = [
  /"logPosition": \{\s*"seq": (\d+),\s*"hash": "([0-9a-f]{64})"\s*\}\s*\}\s*$/,
  /<!-- made from events\.jsonl up to event (\d+), hash ([0-9a-f]{64}) -->\s*$/,
];

/** The log position a derived file records at its end; null when it records none (or is missing). */
export function recordedPosition(file: string): LogPosition | null {
  return fromFileEnd(file, (descriptor, size) => {
    const text = tail(descriptor, size, Math.min(size, 512)).toString('utf8');
    for (const pattern of RECORDED) {
      const match = pattern.exec(text);
      if (match) return { seq: Number(match[1]), hash: match[2] as string };
    }
    return null;
  });
}
