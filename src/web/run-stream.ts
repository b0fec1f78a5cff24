/**
 * A run followed live over server-sent events: the log from after `Last-Event-ID` (the whole log
 * without it), then what changes, polled from the run's files, with a comment now and then to keep
 * proxies from closing a quiet stream.
 */
import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { Logger } from 'pino';
import type { ViewerEnv } from './request-guards.js';
import type { FeedMessage } from './run-feed.js';
import type { ViewerRuns } from './viewer-runs.js';

const KEEP_ALIVE_MS = 15_000;

/** The streams a viewer has open, so closing the viewer ends them. */
export class OpenStreams {
  private readonly streams = new Set<SSEStreamingApi>();

  add(stream: SSEStreamingApi): void {
    this.streams.add(stream);
    stream.onAbort(() => {
      this.streams.delete(stream);
    });
  }

  delete(stream: SSEStreamingApi): void {
    this.streams.delete(stream);
  }

  endAll(): void {
    for (const stream of this.streams) stream.abort();
    this.streams.clear();
  }
}

export function streamRun(
  c: Context<ViewerEnv>,
  runId: string,
  settings: { runs: ViewerRuns; open: OpenStreams; pollMs: number; logger: Logger },
): Response {
  const feed = settings.runs.feed(runId);
  // Sequence numbers start at 0; without Last-Event-ID the whole log is sent.
  const lastId = Number(c.req.header('last-event-id') ?? -1);
  return streamSSE(
    c,
    async (stream) => {
      settings.open.add(stream);
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
        await deliver(feed.start(Number.isInteger(lastId) ? lastId : -1));
        let quiet = 0;
        while (!stream.aborted && !stream.closed) {
          await stream.sleep(settings.pollMs);
          try {
            await deliver(feed.poll());
          } catch (error) {
            settings.logger.warn({ err: error, runId }, 'live feed failed');
          }
          quiet += settings.pollMs;
          if (quiet >= KEEP_ALIVE_MS) {
            quiet = 0;
            await stream.write(': keep-alive\n\n');
          }
        }
      } finally {
        settings.open.delete(stream);
      }
    },
    async (error) => {
      settings.logger.debug({ err: error, runId }, 'live feed ended');
    },
  );
}
