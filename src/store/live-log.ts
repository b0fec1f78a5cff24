/**
 * `live.jsonl`: what a running step is doing (who is generating, the tokens so far, which judges
 * are scoring), for viewers in other processes. It is not the record: nothing is flushed, and the
 * file is removed when the run segment ends. Each line carries the log's last sequence number when
 * the notice was made, so a viewer that connects mid-step can tell in-flight notices from old ones.
 */
import { closeSync, createWriteStream, openSync, readSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { LiveNotice } from '../core/live.js';

export const LIVE_FILE = 'live.jsonl';

export interface LiveLine {
  /** The sequence number of the log's last event when the notice was made. */
  after: number;
  notice: LiveNotice;
}

export interface LiveLogWriter {
  /** Call with each event appended to the log, so notices know where they fall. */
  eventAppended(seq: number): void;
  write(notice: LiveNotice): void;
  /** Ends the stream and removes the file. */
  close(): Promise<void>;
}

export function openLiveLog(runDir: string, lastSeq: number): LiveLogWriter {
  const file = path.join(runDir, LIVE_FILE);
  const stream = createWriteStream(file, { flags: 'w' });
  // A viewer that cannot keep up must never stop the run: write errors are dropped.
  stream.on('error', () => undefined);
  let after = lastSeq;
  return {
    eventAppended(seq) {
      after = Math.max(after, seq);
    },
    write(notice) {
      if (!stream.destroyed) stream.write(`${JSON.stringify({ after, notice } satisfies LiveLine)}\n`);
    },
    close() {
      return new Promise((resolve) => {
        stream.end(() => {
          rmSync(file, { force: true });
          resolve();
        });
      });
    },
  };
}

/**
 * Follows a file that grows by whole lines: each `read()` returns the lines completed since the
 * last one. A file that was replaced (another inode, or shorter than before) is read from its start.
 */
export class LineTail {
  private offset = 0;
  private inode = -1;

  constructor(readonly file: string) {}

  read(): string[] {
    let size: number;
    let inode: number;
    try {
      ({ size, ino: inode } = statSync(this.file));
    } catch {
      this.offset = 0;
      this.inode = -1;
      return [];
    }
    if (inode !== this.inode || size < this.offset) {
      this.inode = inode;
      this.offset = 0;
    }
    if (size === this.offset) return [];
    const buffer = Buffer.alloc(size - this.offset);
    let descriptor: number;
    try {
      descriptor = openSync(this.file, 'r');
    } catch {
      return [];
    }
    try {
      readSync(descriptor, buffer, 0, buffer.length, this.offset);
    } finally {
      closeSync(descriptor);
    }
    const end = buffer.lastIndexOf(0x0a);
    if (end === -1) return [];
    this.offset += end + 1;
    return buffer
      .subarray(0, end)
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
  }
}
