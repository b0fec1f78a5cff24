/**
 * What the tournament's progress display counts: debates done of planned, in flight, failed, the
 * output tokens the hosts produced since this process started, and the time left estimated from
 * the measured rate of debates finished here.
 */
export interface TournamentCounts {
  /** Debates the plan will run in all (the budget, for an adaptive schedule). */
  planned: number;
  /** Debates finished, in this process or before it. */
  done: number;
  failed: number;
  /** Run ids in flight, with each one's current step. */
  running: Map<string, string>;
  /** Output tokens produced by debates in this process. */
  outputTokens: number;
  /** Debates finished by this process, and when it started (monotonic milliseconds). */
  finishedHere: number;
  startedMs: number;
}

export function newCounts(planned: number, done: number, now: number): TournamentCounts {
  return { planned, done, failed: 0, running: new Map(), outputTokens: 0, finishedHere: 0, startedMs: now };
}

function duration(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole >= 3600)
    return `${Math.floor(whole / 3600)}h${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')}m`;
  if (whole >= 60) return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`;
  return `${whole}s`;
}

/** "12/48 debates done, 4 in flight, 0 failed, 183 tokens/s, about 3m10s left". */
export function tournamentProgressLine(counts: TournamentCounts, now: number): string {
  const elapsed = Math.max(0.001, (now - counts.startedMs) / 1000);
  const remaining = Math.max(0, counts.planned - counts.done);
  const rate =
    counts.outputTokens > 0 ? `${Math.round(counts.outputTokens / elapsed)} tokens/s` : 'tokens/s measuring';
  const left =
    remaining === 0
      ? 'none left'
      : counts.finishedHere === 0
        ? 'time left estimating'
        : `about ${duration((elapsed / counts.finishedHere) * remaining)} left`;
  return `${counts.done}/${counts.planned} debates done, ${counts.running.size} in flight, ${counts.failed} failed, ${rate}, ${left}`;
}

/** A line cut to fit a terminal `columns` wide, one column short so it never wraps. */
export function fitLine(line: string, columns: number): string {
  const characters = [...line];
  const room = Math.max(10, columns - 1);
  return characters.length <= room ? line : `${characters.slice(0, room - 1).join('')}…`;
}

/**
 * The progress display: on a terminal, one line redrawn in place (with each debate in flight
 * below it); elsewhere a plain line now and then. Messages (a debate finished) go above it.
 */
export function tournamentReporter(
  out: { write(text: string): unknown; isTTY?: boolean; columns?: number },
  clock: () => number,
  intervalMs?: number,
) {
  const tty = Boolean(out.isTTY);
  let drawn = 0;
  let timer: NodeJS.Timeout | undefined;
  let counts: TournamentCounts | undefined;
  const clear = () => {
    if (tty && drawn > 0) out.write(`\u001b[${drawn}A\u001b[0J`);
    drawn = 0;
  };
  const draw = () => {
    if (!counts) return;
    if (!tty) {
      out.write(`progress: ${tournamentProgressLine(counts, clock())}\n`);
      return;
    }
    const columns = out.columns && out.columns > 0 ? out.columns : 80;
    const lines = [
      tournamentProgressLine(counts, clock()),
      ...[...counts.running].map(([run, step]) => `  ${run}: ${step}`),
    ].map((line) => fitLine(line, columns));
    out.write(
      `${drawn > 0 ? `\u001b[${drawn}A` : ''}${lines.map((line) => `\u001b[2K${line}`).join('\n')}\n\u001b[0J`,
    );
    drawn = lines.length;
  };
  return {
    start(initial: TournamentCounts) {
      counts = initial;
      draw();
      timer = setInterval(draw, intervalMs ?? (tty ? 500 : 10_000));
      timer.unref();
    },
    event(message: string) {
      clear();
      out.write(`${message}\n`);
      if (tty) draw();
    },
    stop() {
      if (timer) clearInterval(timer);
      if (counts) {
        clear();
        out.write(`${tty ? '' : 'progress: '}${tournamentProgressLine(counts, clock())}\n`);
      }
    },
  };
}
