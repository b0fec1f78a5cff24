/**
 * Shares Ollama's capacity between debates running side by side: a gate per host caps the
 * chat calls in flight (like OLLAMA_NUM_PARALLEL) and lets calls of one model go together
 * (call-gate.ts), and with several hosts each call goes to the least busy one.
 */
import { CallGate, GateParty } from './call-gate.js';
import type { ChatOptions, ChatRequest, ChatResult, ModelInfo, ModelProvider } from './provider.js';

/** A counting semaphore; waiters are served in arrival order. */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  peak = 0;

  constructor(readonly limit: number) {}

  get inFlight(): number {
    return this.active + this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    this.peak = Math.max(this.peak, this.active);
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

interface Lane {
  provider: ModelProvider;
  limiter: CallGate;
}

export class LimitedProvider implements ModelProvider {
  readonly host: string;
  private readonly lanes: Lane[];

  constructor(providers: ModelProvider[], perHostLimit: number) {
    if (providers.length === 0) throw new Error('LimitedProvider needs at least one provider');
    this.lanes = providers.map((provider) => ({ provider, limiter: new CallGate(perHostLimit) }));
    this.host = providers.map((provider) => provider.host).join(', ');
  }

  /** Calls the hosts take at once in all: the per-host limit times the hosts. */
  get capacity(): number {
    return this.lanes.reduce((sum, lane) => sum + lane.limiter.limit, 0);
  }

  /** Highest number of calls that were in flight at once, per host. */
  peaks(): Record<string, number> {
    return Object.fromEntries(this.lanes.map((lane) => [lane.provider.host, lane.limiter.peak]));
  }

  chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResult> {
    return this.chatAs(undefined, request, options);
  }

  /**
   * The hosts as one debate of several sees them: its calls take part in the gates as a party with
   * `share` calls in flight while other debates' calls wait (call-gate.ts). `close` it when the
   * debate is over.
   */
  party(): { provider: ModelProvider; close(): void } {
    const party = new GateParty();
    for (const lane of this.lanes) lane.limiter.join(party);
    const provider: ModelProvider = {
      host: this.host,
      chat: (request, options) => this.chatAs(party, request, options),
      listModels: (options) => this.listModels(options),
      version: (options) => this.version(options),
    };
    return {
      provider,
      close: () => {
        for (const lane of this.lanes) lane.limiter.leave(party);
      },
    };
  }

  private chatAs(
    party: GateParty | undefined,
    request: ChatRequest,
    options?: ChatOptions,
  ): Promise<ChatResult> {
    const lane = this.lanes.reduce((best, lane) =>
      lane.limiter.inFlight < best.limiter.inFlight ? lane : best,
    );
    const prompt = request.messages.map((message) => message.content).join('\n');
    return lane.limiter.run({ model: request.model, prompt, ...(party ? { party } : {}) }, () =>
      lane.provider.chat(request, options),
    );
  }

  listModels(options?: { signal?: AbortSignal }): Promise<ModelInfo[]> {
    return (this.lanes[0] as Lane).provider.listModels(options);
  }

  version(options?: { signal?: AbortSignal }): Promise<string> {
    return (this.lanes[0] as Lane).provider.version(options);
  }
}
