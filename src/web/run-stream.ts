/**
 * A run followed live over server-sent events: the log from after `Last-Event-ID` (the whole log
 * without it), then what changes, from the run's shared feed, with a comment now and then to keep
 * proxies from closing a quiet stream. A finished run's stream ends with an `end` event and closes.
 * One client address may hold `STREAMS_PER_CLIENT` streams at once.
 */
import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { Logger } from 'pino';
import { HttpError, type ViewerEnv } from './request-guards.js';
import type { FeedMessage } from './run-feed.js';
import type { SharedFeeds } from './shared-feeds.js';

const KEEP_ALIVE_MS = 15_000;

/** The streams a viewer has open, and from which client address, so closing the viewer ends them. */
export class OpenStreams {
  private readonly streams = new Map<SSEStreamingApi, string>();

  add(stream: SSEStreamingApi, client: string): void {
    this.streams.set(stream, client);
    stream.onAbort(() => {
      this.streams.delete(stream);
    });
  }

  delete(stream: SSEStreamingApi): void {
    this.streams.delete(stream);
  }

  /** How many streams `client` has open. */
  countFrom(client: string): number {
    let count = 0;
    for (const from of this.streams.values()) if (from === client) count += 1;
    return count;
  }

  endAll(): void {
    for (const stream of this.streams.keys()) stream.abort();
    this.streams.clear();
  }
}

/** More open streams than this from one client address are refused (429); docs/faults.md says why. */
export const STREAMS_PER_CLIENT = 32;

export function streamRun(
  c: Context<ViewerEnv>,
  runId: string,
  settings: { feeds: SharedFeeds; open: OpenStreams; logger: Logger; streamsPerClient?: number },
): Response {
  const client = c.env.incoming?.socket?.remoteAddress ?? 'unknown';
  const most = settings.streamsPerClient ?? STREAMS_PER_CLIENT;
  if (settings.open.countFrom(client) >= most) {
    throw new HttpError(
      429,
      `this client has ${most} live streams open already, the most the viewer serves one address; close some of its pages and reload this one`,
    );
  }
  // Sequence numbers start at 0; without Last-Event-ID (or `after`, from a page that reopens its
  // stream) the whole log is sent.
  const given = c.req.header('last-event-id') ?? c.req.query('after');
  const lastId = given === undefined || given === '' ? -1 : Number(given);
  const shared = settings.feeds.of(runId);
  return streamSSE(
    c,
    async (stream) => {
      settings.open.add(stream, client);
      const queue: FeedMessage[][] = [];
      let wake: (() => void) | undefined;
      const unfollow = shared.follow((messages) => {
        queue.push(messages);
        wake?.();
      });
      stream.onAbort(() => wake?.());
      const deliver = async (messages: FeedMessage[]) => {
        for (const message of messages) {
          await stream.writeSSE({
            event: message.kind,
            data: JSON.stringify(message.data),
            ...(message.kind === 'run-event' ? { id: String(message.id) } : {}),
          });
        }
      };
      try {
        await deliver(shared.start(Number.isInteger(lastId) ? lastId : -1));
        while (!stream.aborted && !stream.closed) {
          // A finished run's stream says so and closes: the page stops following it.
          if (shared.finished && queue.length === 0) {
            await stream.writeSSE({ event: 'end', data: JSON.stringify({ finished: true }) });
            break;
          }
          if (queue.length === 0) {
            let timer: NodeJS.Timeout | undefined;
            await new Promise<void>((resolve) => {
              wake = resolve;
              timer = setTimeout(resolve, KEEP_ALIVE_MS);
            });
            clearTimeout(timer);
            wake = undefined;
            // Nothing for a while: a comment keeps proxies from closing a quiet stream.
            if (queue.length === 0 && !stream.aborted) await stream.write(': keep-alive\n\n');
            continue;
          }
          await deliver(queue.shift() ?? []);
        }
      } finally {
        unfollow();
        settings.open.delete(stream);
      }
    },
    async (error) => {
      settings.logger.debug({ err: error, runId }, 'live feed ended');
    },
  );
}
