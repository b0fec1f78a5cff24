import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgressReporter, type ProgressCounts } from '../../src/batch/batch-progress.js';

const ESC = String.fromCharCode(27);

function stream(tty: boolean, columns?: number) {
  const out = Object.assign(new PassThrough(), { isTTY: tty, columns });
  let text = '';
  out.on('data', (chunk) => {
    text += chunk;
  });
  return { out, text: () => text };
}

// Run ids as the batch makes them: long enough to reach past an 80-column terminal.
const running = new Map([
  [
    '20261123-104459-should-cities-ban-cars-from-their-centre-s11-llama3-vs-mistral',
    'round 3: judges scoring',
  ],
  [
    '20261123-104459-should-cities-ban-cars-from-their-centre-s12-mistral-vs-llama3',
    'round 1: Xavier speaking',
  ],
]);

function counts(): ProgressCounts {
  return { total: 240, done: 17, skipped: 3, failed: 1, running: new Map(running), durations: [61_000] };
}

describe('batch progress', () => {
  it('never draws a line as wide as an 80-column terminal, so the redraw lands in place', () => {
    const { out, text } = stream(true, 80);
    const reporter = createProgressReporter(out, 2, 60_000);
    reporter.start(counts());
    reporter.event('finished 20261123-104459-should-cities-ban-cars-from-their-centre-s11 (completed)');
    reporter.stop();
    // The redrawn block: each of its lines starts by clearing the line; escapes take no room.
    const redrawn = text()
      .split('\n')
      .filter((line) => line.includes(`${ESC}[2K`))
      .map((line) => line.replace(new RegExp(`${ESC}\\[\\d*[A-Za-z]`, 'g'), ''));
    expect(redrawn.length).toBeGreaterThanOrEqual(6);
    expect(redrawn.filter((line) => line.length > 79)).toEqual([]);
    expect(text()).toContain('\u001b[2K20/240 done');
    expect(
      redrawn.some((line) => line.startsWith('  20261123-104459-should-cities-ban') && line.endsWith('…')),
    ).toBe(true);
  });

  it('writes plain lines to a pipe: no cursor movement, no carriage returns', () => {
    const { out, text } = stream(false);
    const reporter = createProgressReporter(out, 2, 60_000);
    reporter.start(counts());
    reporter.event('finished one debate (completed)');
    reporter.stop();
    expect(text()).not.toContain('\r');
    expect(text()).not.toContain(ESC);
    expect(
      text()
        .split('\n')
        .filter((line) => line.startsWith('progress: 20/240 done')),
    ).toHaveLength(3);
  });
});
