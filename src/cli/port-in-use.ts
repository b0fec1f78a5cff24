/** A server that could not listen on the port asked for: a usage problem with a fix, not a crash. */
import { UsageError } from '../core/errors.js';

/** Runs `listen`; a port in use or not allowed becomes a UsageError (exit 2) that names the port and `--port`. */
export async function listenOnPort<T>(address: string, port: number, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new UsageError(
        `port ${port} on ${address} is already in use by another program; choose another with --port N, or --port 0 for any free port`,
      );
    }
    if (code === 'EACCES') {
      throw new UsageError(
        `port ${port} on ${address} needs privileges this user lacks; choose a port above 1023 with --port N`,
      );
    }
    throw error;
  }
}
