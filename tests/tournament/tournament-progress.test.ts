import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  newCounts,
  tournamentProgressLine,
  tournamentReporter,
} from '../../src/tournament/tournament-progress.js';

describe('the tournament’s progress line', () => {
  it('gives debates done of planned, in flight, the measured token rate and the time left from measured rates', () => {
    const counts = newCounts(48, 6, 0);
    expect(tournamentProgressLine(counts, 1000)).toBe(
      '6/48 debates done, 0 in flight, 0 failed, tokens/s measuring, time left estimating',
    );
    counts.running.set('run-7', 'round 1: judging');
    counts.outputTokens = 12_000;
    counts.done = 10;
    counts.finishedHere = 4;
    // 4 debates in 60 s here: 38 left take 570 s at that rate; 12000 tokens in 60 s.
    expect(tournamentProgressLine(counts, 60_000)).toBe(
      '10/48 debates done, 1 in flight, 0 failed, 200 tokens/s, about 9m30s left',
    );
  });

  it('redraws in place on a terminal, cut to its width, and prints plain lines elsewhere', () => {
    const written: string[] = [];
    const sink = (tty: boolean) =>
      Object.assign(
        new Writable({
          write(chunk, _encoding, done) {
            written.push(String(chunk));
            done();
          },
        }),
        { isTTY: tty, columns: 40 },
      );
    const counts = newCounts(4, 0, 0);
    counts.running.set('tournament-abc-001-m1-v-m2', 'round 2: Debater A speaking');
    const terminal = tournamentReporter(sink(true), () => 0, 60_000);
    terminal.start(counts);
    terminal.event('completed: one');
    terminal.stop();
    const drawn = written.join('');
    expect(drawn).toContain('\u001b[2K0/4 debates done, 1 in flight, 0 faile…\n');
    expect(drawn).toContain('\u001b[2A\u001b[0Jcompleted: one\n');
    // Every redrawn line fits in 39 columns, so none wraps; the last, printed once at the end, is whole.
    const esc = String.fromCharCode(27);
    const lines = drawn.split('\n').slice(0, -2);
    for (const line of lines)
      expect(
        [
          ...line
            .split(esc)
            .map((part) => part.replace(/^\[[0-9;]*[A-Za-z]/, ''))
            .join(''),
        ].length,
      ).toBeLessThan(40);
    expect(
      drawn.endsWith('0/4 debates done, 1 in flight, 0 failed, tokens/s measuring, time left estimating\n'),
    ).toBe(true);

    written.length = 0;
    const plain = tournamentReporter(sink(false), () => 0, 60_000);
    plain.start(counts);
    plain.event('completed: one');
    plain.stop();
    expect(written.join('')).toBe(
      'progress: 0/4 debates done, 1 in flight, 0 failed, tokens/s measuring, time left estimating\ncompleted: one\nprogress: 0/4 debates done, 1 in flight, 0 failed, tokens/s measuring, time left estimating\n',
    );
  });
});
