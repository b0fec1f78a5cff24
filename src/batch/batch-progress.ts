/**
 * The batch's progress display: on a terminal, a block of lines redrawn in place (done, running,
 * failed, ETA, and each running debate's current step); elsewhere, plain lines now and then.
 */
import type { Writable } from 'node:stream';

export interface ProgressCounts {
  total: number;
  done: number;
  skipped: number;
  failed: number;
  running: Map<string, string>;
  /** Real milliseconds of each debate finished in this session, for the ETA. */
  durations: number[];
}

function eta(counts: ProgressCounts, concurrency: number): string {
  const remaining = counts.total - counts.done - counts.failed - counts.skipped;
  if (counts.durations.length === 0 || remaining <= 0) return remaining <= 0 ? 'done' : 'estimating';
  const mean = counts.durations.reduce((sum, value) => sum + value, 0) / counts.durations.length;
  const seconds = Math.round((mean * remaining) / Math.max(1, concurrency) / 1000);
  return seconds >= 60
    ? `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`
    : `${seconds}s`;
}

export function progressLine(counts: ProgressCounts, concurrency: number): string {
  return `${counts.done + counts.skipped}/${counts.total} done (${counts.skipped} already finished), ${counts.running.size} running, ${counts.failed} failed, ETA ${eta(counts, concurrency)}`;
}

/**
 * A line cut to fit a terminal `columns` wide, one column short: a line that reaches the last column
 * can wrap, and the cursor-up that redraws the block would then stop short and leave copies behind.
 */
export function fitToTerminal(line: string, columns: number): string {
  const characters = [...line];
  const room = Math.max(10, columns - 1);
  return characters.length <= room ? line : `${characters.slice(0, room - 1).join('')}…`;
}

export function createProgressReporter(
  out: Writable & { isTTY?: boolean; columns?: number },
  concurrency: number,
  intervalMs?: number,
) {
  const tty = Boolean(out.isTTY);
  let drawn = 0;
  let timer: NodeJS.Timeout | undefined;
  let counts: ProgressCounts | undefined;
  const draw = () => {
    if (!counts) return;
    if (tty) {
      // Read at every redraw: the terminal may have been resized.
      const columns = out.columns && out.columns > 0 ? out.columns : 80;
      const lines = [
        progressLine(counts, concurrency),
        ...[...counts.running].map(([run, step]) => `  ${run}: ${step}`),
      ].map((line) => fitToTerminal(line, columns));
      out.write(
        `${drawn > 0 ? `\u001b[${drawn}A` : ''}${lines.map((line) => `\u001b[2K${line}`).join('\n')}\n`,
      );
      drawn = lines.length;
    } else {
      out.write(`progress: ${progressLine(counts, concurrency)}\n`);
    }
  };
  return {
    start(initial: ProgressCounts) {
      counts = initial;
      draw();
      timer = setInterval(draw, intervalMs ?? (tty ? 500 : 10_000));
      timer.unref();
    },
    /** A debate finished, failed or was skipped: always worth a line. */
    event(message: string) {
      if (tty && drawn > 0) {
        out.write(`\u001b[${drawn}A\u001b[0J`);
        drawn = 0;
      }
      out.write(`${message}\n`);
      draw();
    },
    stop() {
      if (timer) clearInterval(timer);
      draw();
    },
  };
}
