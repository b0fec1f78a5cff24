/** Ctrl-C and SIGTERM for commands that run debates: the first stops after the step in flight, a later one aborts it. */

/**
 * A second signal this soon after the first is taken as the same keypress. Under `npm run` with
 * tsx, Ctrl-C reaches the whole process group, and tsx's parent process also relays the SIGINT it
 * received to its child, so one keypress can arrive twice within a few milliseconds. A person
 * pressing Ctrl-C again to abort takes far longer than this.
 */
export const SAME_KEYPRESS_MS = 1000;

/** What a stop signal does: `stop` on the first, `abort` on a later one outside the keypress window. */
export interface StopSignalHandlers {
  stop(signal: NodeJS.Signals): void;
  abort(signal: NodeJS.Signals): void;
}

/** Listens for SIGINT and SIGTERM until the returned function is called. */
export function listenForStopSignals(handlers: StopSignalHandlers): () => void {
  let firstAt: number | undefined;
  let aborted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstAt === undefined) {
      firstAt = Date.now();
      handlers.stop(signal);
      return;
    }
    if (aborted || Date.now() - firstAt < SAME_KEYPRESS_MS) return;
    aborted = true;
    handlers.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

/** Where a run of many debates reports a signal: its progress reporter, so a redraw does not paint over it. */
export interface SignalReporter {
  event(text: string): void;
}

/**
 * The first Ctrl-C (or SIGTERM) of a command that runs many debates asks them to stop after the steps
 * in flight; a second aborts those steps. Each is said through the reporter with how to go on
 * (`resumeHint`). `stopRequested()` and `signal` are handed to the debates; `close()` stops listening.
 */
export function stopAfterStepsInFlight(reporter: SignalReporter, resumeHint: string) {
  let stopRequested = false;
  const abort = new AbortController();
  const close = listenForStopSignals({
    stop(signal) {
      stopRequested = true;
      reporter.event(
        `${signal}: stopping after the steps in flight (press Ctrl-C again to abort them). ${resumeHint}`,
      );
    },
    abort(signal) {
      reporter.event(`${signal} again: aborting the steps in flight. ${resumeHint}`);
      abort.abort();
    },
  });
  return { stopRequested: () => stopRequested, signal: abort.signal, close };
}
