/**
 * Reads a stream line by line, holding at most what the caller keeps of a line and one chunk of
 * the stream: a line longer than that (a paste, a pipe that never sends a newline) is read to its
 * end and the rest dropped, and counted. The stream is paused but while a line is asked for, so
 * lines sent before their turn wait in the stream's buffer (and the pipe), not in memory.
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** One line as read: its first characters, how many more it had, and whether it holds only ".". */
export interface ReadLine {
  text: string;
  dropped: number;
  onlyDot: boolean;
}

export class BoundedLineReader {
  /** Text read from the stream and not yet taken: at most one chunk, as the stream is paused. */
  private pending = '';
  private ended = false;
  private wake: (() => void) | undefined;
  private readonly decoder = new StringDecoder('utf8');
  private readonly onData = (chunk: Buffer | string) => {
    // One chunk at a time: the stream waits, paused, until this one is taken.
    this.input.pause();
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    this.wake?.();
  };
  private readonly onEnd = () => {
    this.ended = true;
    this.pending += this.decoder.end();
    this.wake?.();
  };

  constructor(private readonly input: Readable) {
    input.pause();
    input.on('data', this.onData);
    input.on('end', this.onEnd);
    input.on('close', this.onEnd);
    input.on('error', this.onEnd);
  }

  /**
   * The next line, of which at most `keep` characters are held; `undefined` at the end of the input
   * (with nothing before it) or once `signal` is aborted.
   */
  async line(keep: number, signal?: AbortSignal): Promise<ReadLine | undefined> {
    let text = '';
    let dropped = 0;
    let started = false;
    // Whether the line holds only "." needs only its first two characters other than spaces.
    let visible = '';
    const take = (piece: string) => {
      const room = Math.max(0, keep - text.length);
      if (room > 0) text += piece.slice(0, room);
      dropped += Math.max(0, piece.length - room);
      const shown = /\S/g;
      while (visible.length < 2) {
        const found = shown.exec(piece);
        if (found === null) break;
        visible += found[0];
      }
    };
    const finish = (): ReadLine => {
      if (text.endsWith('\r') && dropped === 0) text = text.slice(0, -1);
      return { text, dropped, onlyDot: visible === '.' };
    };
    const abort = () => this.wake?.();
    signal?.addEventListener('abort', abort, { once: true });
    try {
      for (;;) {
        if (signal?.aborted) return undefined;
        if (this.pending === '') {
          if (this.ended) return started ? finish() : undefined;
          this.input.resume();
          await new Promise<void>((resolve) => {
            this.wake = resolve;
          });
          this.wake = undefined;
          continue;
        }
        started = true;
        const newline = this.pending.indexOf('\n');
        if (newline === -1) {
          take(this.pending);
          this.pending = '';
          continue;
        }
        take(this.pending.slice(0, newline));
        this.pending = this.pending.slice(newline + 1);
        return finish();
      }
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }

  /** Stops reading: the stream is left paused, so it keeps the process alive no longer. */
  close(): void {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    this.input.off('error', this.onEnd);
    this.input.pause();
    this.wake?.();
  }
}
