/** The run's pino logger: JSON lines to `<run dir>/run.log`, and debug lines to stderr with --verbose. */
import pino, { type Logger } from 'pino';

export function createRunLogger(logFile: string | undefined, options: { verbose: boolean }): Logger {
  const streams: pino.StreamEntry[] = [];
  if (logFile)
    streams.push({ level: 'debug', stream: pino.destination({ dest: logFile, sync: true, mkdir: true }) });
  if (options.verbose) streams.push({ level: 'debug', stream: pino.destination({ dest: 2, sync: true }) });
  if (streams.length === 0) return pino({ enabled: false });
  return pino({ level: 'debug', base: undefined }, pino.multistream(streams));
}
