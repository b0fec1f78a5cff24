/**
 * The pages that follow one run share one feed: its files are polled and its events rendered once
 * per interval, however many streams are open on it, and a new stream starts from what the feed
 * has already rendered (from the client's last event id on). A feed nobody follows stops polling
 * and is dropped.
 */
import type { Logger } from 'pino';
import type { FeedMessage, RunFeed } from './run-feed.js';

type Listener = (messages: FeedMessage[]) => void;

export class SharedFeed {
  private readonly events: FeedMessage[] = [];
  /** The notices of the step in flight: since the last event. */
  private live: FeedMessage[] = [];
  private view: FeedMessage | undefined;
  private map: FeedMessage | undefined;
  private damage: FeedMessage | undefined;
  private failure: FeedMessage | undefined;
  private lastEventType: string | undefined;
  private readonly listeners = new Set<Listener>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly feed: RunFeed,
    private readonly pollMs: number,
    private readonly logger: Logger,
    private readonly idle: () => void,
    private readonly resuming: () => boolean = () => false,
  ) {
    this.keep(feed.poll(true));
  }

  /**
   * A run with nothing more to send: its log ends with the run's end and no worker this viewer
   * resumed it in is starting, or its worker ended before writing anything. (A stopped run resumed
   * later, elsewhere, is followed by a new stream.)
   */
  get finished(): boolean {
    return (this.lastEventType === 'run-end' && !this.resuming()) || this.failure !== undefined;
  }

  /** What a new stream is sent first: the events after `afterSeq`, then the run as it stands. */
  start(afterSeq: number): FeedMessage[] {
    return [
      ...(this.damage ? [this.damage] : []),
      ...this.events.filter((message) => message.kind === 'run-event' && message.id > afterSeq),
      ...this.live,
      ...(this.view ? [this.view] : []),
      ...(this.map ? [this.map] : []),
      ...(this.failure ? [this.failure] : []),
    ];
  }

  /** Calls `listener` with what changes; the returned function stops it. */
  follow(listener: Listener): () => void {
    this.listeners.add(listener);
    this.timer ??= setInterval(() => this.poll(), this.pollMs);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      clearInterval(this.timer);
      this.timer = undefined;
      this.idle();
    };
  }

  private poll(): void {
    let fresh: FeedMessage[];
    try {
      fresh = this.feed.poll();
    } catch (error) {
      this.logger.warn({ err: error, runId: this.feed.runId }, 'live feed failed');
      return;
    }
    if (fresh.length === 0) return;
    this.keep(fresh);
    for (const listener of [...this.listeners]) listener(fresh);
  }

  private keep(messages: FeedMessage[]): void {
    for (const message of messages) {
      switch (message.kind) {
        case 'run-event':
          this.events.push(message);
          this.live = [];
          this.lastEventType = message.data.type;
          break;
        case 'live':
          this.live.push(message);
          break;
        case 'view':
          this.view = message;
          break;
        case 'map':
          this.map = message;
          break;
        case 'log-damaged':
          this.damage = message;
          break;
        case 'worker-failed':
          this.failure = message;
          break;
      }
    }
  }
}

/** The shared feeds of the runs being followed, by run id. */
export class SharedFeeds {
  private readonly feeds = new Map<string, SharedFeed>();

  constructor(
    private readonly open: (runId: string) => RunFeed,
    private readonly pollMs: number,
    private readonly logger: Logger,
    private readonly resuming: (runId: string) => boolean = () => false,
  ) {}

  of(runId: string): SharedFeed {
    let shared = this.feeds.get(runId);
    if (!shared) {
      shared = new SharedFeed(
        this.open(runId),
        this.pollMs,
        this.logger,
        () => {
          if (this.feeds.get(runId) === shared) this.feeds.delete(runId);
        },
        () => this.resuming(runId),
      );
      this.feeds.set(runId, shared);
    }
    return shared;
  }
}
