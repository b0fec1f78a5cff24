/**
 * The person's input read line by line with a bound: a line keeps at most what is asked for, the
 * rest is read and counted, a line holding only "." is told apart however it is spread over the
 * stream's chunks, and a never-ending line does not fill memory.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BoundedLineReader } from '../../src/cli/bounded-lines.js';

describe('BoundedLineReader', () => {
  it('splits lines across chunks, keeps what is asked for, and counts what it dropped', async () => {
    const reader = new BoundedLineReader(Readable.from(['ab', 'c\r\n  .  \n', 'x'.repeat(100), '\nlast']));
    expect(await reader.line(10)).toEqual({ text: 'abc', dropped: 0, onlyDot: false });
    expect(await reader.line(10)).toEqual({ text: '  .  ', dropped: 0, onlyDot: true });
    expect(await reader.line(10)).toEqual({ text: 'x'.repeat(10), dropped: 90, onlyDot: false });
    expect(await reader.line(10)).toEqual({ text: 'last', dropped: 0, onlyDot: false });
    expect(await reader.line(10)).toBeUndefined();
  });

  it('tells a "." line apart when it arrives after many spaces, or with nothing kept of it', async () => {
    const reader = new BoundedLineReader(Readable.from([' '.repeat(70_000), '.', '\n', '..\n', '.\n']));
    expect(await reader.line(0)).toMatchObject({ text: '', dropped: 70_001, onlyDot: true });
    expect(await reader.line(0)).toMatchObject({ onlyDot: false });
    expect(await reader.line(0)).toMatchObject({ onlyDot: true });
  });

  it('reads a 300 MB line without holding it: memory stays bounded, and the next line is read', async () => {
    const chunk = 'a'.repeat(64 * 1024);
    const chunks = (300 * 1024 * 1024) / chunk.length;
    let peak = 0;
    const before = process.memoryUsage().heapUsed;
    const input = Readable.from(
      (function* () {
        for (let index = 0; index < chunks; index += 1) {
          if (index % 256 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - before);
          yield Buffer.from(chunk);
        }
        yield Buffer.from('\nnext\n');
      })(),
    );
    const reader = new BoundedLineReader(input);
    const line = await reader.line(9600);
    expect(line?.text).toHaveLength(9600);
    expect(line?.dropped).toBe(300 * 1024 * 1024 - 9600);
    expect(await reader.line(9600)).toMatchObject({ text: 'next' });
    // Held whole, the line alone would be 300 MB of heap.
    expect(peak).toBeLessThan(100 * 1024 * 1024);
  });

  it('stops waiting when its signal is aborted', async () => {
    const input = new Readable({ read() {} });
    const reader = new BoundedLineReader(input);
    const abort = new AbortController();
    const waiting = reader.line(100, abort.signal);
    abort.abort();
    expect(await waiting).toBeUndefined();
    reader.close();
  });
});
