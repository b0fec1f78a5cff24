/**
 * Tells a full shared cache from a small window. llama-server's slots may share one cache (`-c 8192`
 * with the slot count left to the server, or `--kv-unified`): each slot's window is the whole
 * cache, as `/props` reports, but calls sent together can fill it between them, and the call that
 * runs out of room is told "Context size has been exceeded" (inside its 200 stream, or as HTTP 500)
 * like a call whose own window filled. What tells them apart is the other calls: an error that
 * arrives while other calls are in flight on that server is the shared cache; the same call sent
 * again with fewer beside it fits, so it is never cut for it.
 */
import { ContextOverflowError, ProviderError } from './errors.js';

/** One call on the server, and the most calls that were in flight there while it ran. */
export interface CallOnServer {
  overlap: number;
}

/** The calls in flight on one server, each knowing how many ran beside it. */
export class CallsInFlight {
  private readonly running = new Set<CallOnServer>();

  start(): CallOnServer {
    const call = { overlap: 0 };
    this.running.add(call);
    for (const other of this.running) other.overlap = Math.max(other.overlap, this.running.size);
    return call;
  }

  end(call: CallOnServer): void {
    this.running.delete(call);
  }
}

const FILLED = /context size has been exceeded/i;

/**
 * Whether `error` says the server ran out of room while the call was in it: the window (or the
 * cache its slots share) filled mid-answer, or the server answered HTTP 500 saying so.
 */
export function roomRanOut(error: unknown): boolean {
  if (error instanceof ContextOverflowError) return error.duringAnswer;
  return (
    error instanceof ProviderError &&
    error.kind === 'server-error' &&
    error.status === 500 &&
    FILLED.test(error.message)
  );
}
