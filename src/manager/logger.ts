/** The run's pino logger: JSON lines to `<run dir>/run.log`, and debug lines to stderr with --verbose. */
import pino, { type Logger } from 'pino';

type Destination = ReturnType<typeof pino.destination>;
const openFiles = new WeakMap<Logger, Destination>();

export function createRunLogger(logFile: string | undefined, options: { verbose: boolean }): Logger {
  const streams: pino.StreamEntry[] = [];
  const file = logFile ? pino.destination({ dest: logFile, sync: true, mkdir: true }) : undefined;
  // The run log is for diagnosis, the event log is the record: a full disk must stop the run
  // through the record's own write (a StorageError naming the file), never by a log line.
  file?.on('error', () => undefined);
  if (file) streams.push({ level: 'debug', stream: file });
  if (options.verbose) streams.push({ level: 'debug', stream: pino.destination({ dest: 2, sync: true }) });
  if (streams.length === 0) return pino({ enabled: false });
  const logger = pino({ level: 'debug', base: undefined }, pino.multistream(streams));
  if (file) openFiles.set(logger, file);
  return logger;
}

/** Closes the run's log file, so a batch of many runs does not keep one file open per run. */
export function closeRunLogger(logger: Logger): void {
  const file = openFiles.get(logger);
  if (!file) return;
  openFiles.delete(logger);
  try {
    file.flushSync();
  } catch {
    // Lines that found no room are lost; the run's outcome is in its event log.
  }
  file.end();
}
