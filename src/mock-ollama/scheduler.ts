/**
 * Simulated model residency and request slots. Models are loaded on demand (evicting the least
 * recently used idle model when memory is full), each loaded model has `parallel` slots, and a
 * request waits in a real queue until a slot of its model is free, so concurrency effects are real.
 */
import type { CostProfile } from './profiles.js';
import { type CacheSlot, cachedTokens, chooseSlot } from './prompt-cache.js';

/** A granted slot. `release` must be called exactly once when the request is over. */
export interface Lease {
  slot: number;
  /** Prompt tokens served from the slot's cache. */
  cached: number;
  /** This request caused the model to load. */
  loaded: boolean;
  /** Real time (ms since epoch) at which the model is ready; later than now while it loads. */
  readyAt: number;
  /** The tokens the slot remembered before this request. */
  previous: readonly string[];
  /** Frees the slot, remembering `memory` (the tokens now in its cache). */
  release(memory: readonly string[]): void;
}

/** A model currently in (simulated) memory, as /api/ps reports it. */
export interface LoadedModelView {
  name: string;
  expiresAt: number;
}

interface LoadedModel {
  name: string;
  slots: CacheSlot[];
  lastUsed: number;
  readyAt: number;
  expiresAt: number;
}

interface Waiter {
  model: string;
  prompt: readonly string[];
  keepAliveMs: number;
  grant(lease: Lease): void;
}

/** Thrown to a queued request when its signal aborts. */
export class QueueAbortedError extends Error {
  override name = 'QueueAbortedError';
}

/** Places requests on model slots under a cost profile; `speed` scales real load waits. */
export class Scheduler {
  private readonly models = new Map<string, LoadedModel>();
  private readonly queue: Waiter[] = [];
  private tick = 0;

  constructor(
    private readonly profile: CostProfile,
    private readonly speed: number,
    private readonly onLoad: (model: string, readyAt: number) => void,
  ) {}

  /** Waits for a slot of `model` (loading it if needed) and returns it with its cache hit. */
  acquire(
    model: string,
    prompt: readonly string[],
    keepAliveMs: number,
    signal: AbortSignal,
  ): Promise<Lease> {
    return new Promise<Lease>((resolve, reject) => {
      if (signal.aborted) {
        reject(new QueueAbortedError('request aborted before it was scheduled'));
        return;
      }
      const onAbort = (): void => {
        const at = this.queue.indexOf(waiter);
        if (at !== -1) this.queue.splice(at, 1);
        reject(new QueueAbortedError('request aborted while queued'));
      };
      const waiter: Waiter = {
        model,
        prompt,
        keepAliveMs,
        grant: (lease) => {
          signal.removeEventListener('abort', onAbort);
          resolve(lease);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.dispatch();
    });
  }

  /**
   * Loads `model` without running a request (Ollama's empty chat): resolves with the real time at
   * which it is ready. A model already loaded only has its keep-alive renewed; caches are kept.
   */
  async preload(model: string, keepAliveMs: number, signal: AbortSignal): Promise<number> {
    this.expireIdle();
    const loaded = this.models.get(model);
    if (loaded !== undefined) {
      loaded.expiresAt = keepAliveMs < 0 ? Number.POSITIVE_INFINITY : Date.now() + keepAliveMs;
      return loaded.readyAt;
    }
    const lease = await this.acquire(model, [], keepAliveMs, signal);
    lease.release(lease.previous);
    return lease.readyAt;
  }

  /** Unloads `model` as soon as it is idle (Ollama's empty chat with `keep_alive: 0`). */
  unload(model: string): void {
    const loaded = this.models.get(model);
    if (loaded === undefined) return;
    loaded.expiresAt = 0;
    this.dispatch();
  }

  /** Models currently loaded, most recently used first. */
  loadedModels(): LoadedModelView[] {
    this.expireIdle();
    return [...this.models.values()]
      .sort((a, b) => b.lastUsed - a.lastUsed)
      .map((m) => ({ name: m.name, expiresAt: m.expiresAt }));
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.queue.length;
  }

  /**
   * Serves every queued request that can run now, oldest first. Like Ollama's scheduler, a request
   * whose model must be loaded but finds no room holds up every request behind it (they wait for
   * it, whatever their model); requests for a loaded model that only wait for a slot do not.
   */
  private dispatch(): void {
    this.expireIdle();
    for (let i = 0; i < this.queue.length; ) {
      const waiter = this.queue[i] as Waiter;
      const lease = this.tryPlace(waiter);
      if (lease === undefined) {
        if (!this.models.has(waiter.model)) break;
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      waiter.grant(lease);
    }
  }

  private tryPlace(waiter: Waiter): Lease | undefined {
    let model = this.models.get(waiter.model);
    let loaded = false;
    if (model === undefined) {
      if (this.models.size >= this.profile.maxLoadedModels && !this.evictOne()) return undefined;
      model = this.load(waiter.model);
      loaded = true;
    }
    const { index, common } = chooseSlot(model.slots, waiter.prompt, this.profile.multiUserCache === true);
    const slot = model.slots[index];
    if (slot === undefined) return undefined;
    this.tick++;
    slot.busy = true;
    slot.lastUsed = this.tick;
    model.lastUsed = this.tick;
    const owner = model;
    let released = false;
    const previous = slot.tokens;
    // While it serves the request the slot holds the prompt (its prefill is short beside the
    // answer's decode), which a multi-user cache may copy a prefix of into another slot.
    slot.tokens = waiter.prompt;
    return {
      slot: index,
      cached: cachedTokens(common, waiter.prompt.length),
      loaded,
      readyAt: model.readyAt,
      previous,
      release: (memory) => {
        if (released) return;
        released = true;
        slot.busy = false;
        slot.tokens = memory;
        this.tick++;
        owner.lastUsed = this.tick;
        owner.expiresAt = waiter.keepAliveMs < 0 ? Number.POSITIVE_INFINITY : Date.now() + waiter.keepAliveMs;
        // keep_alive 0 asks for an unload as soon as the model is idle.
        if (waiter.keepAliveMs === 0 && owner.slots.every((s) => !s.busy)) this.models.delete(owner.name);
        this.dispatch();
      },
    };
  }

  private load(name: string): LoadedModel {
    const now = Date.now();
    const model: LoadedModel = {
      name,
      // A fresh load has empty caches; an evicted model's caches are simply gone.
      slots: Array.from({ length: this.profile.parallel }, () => ({ tokens: [], busy: false, lastUsed: 0 })),
      lastUsed: this.tick,
      readyAt: now + this.profile.loadSeconds * this.speed * 1000,
      expiresAt: now + 5 * 60_000,
    };
    this.models.set(name, model);
    this.onLoad(name, model.readyAt);
    return model;
  }

  /** Unloads the least recently used idle model; false if every loaded model is busy. */
  private evictOne(): boolean {
    let victim: LoadedModel | undefined;
    for (const model of this.models.values()) {
      if (model.slots.some((s) => s.busy)) continue;
      if (victim === undefined || model.lastUsed < victim.lastUsed) victim = model;
    }
    if (victim === undefined) return false;
    this.models.delete(victim.name);
    return true;
  }

  /** Drops idle models whose keep-alive has run out (checked lazily, so no timers are needed). */
  private expireIdle(): void {
    const now = Date.now();
    for (const model of [...this.models.values()]) {
      if (model.expiresAt <= now && model.slots.every((s) => !s.busy)) this.models.delete(model.name);
    }
  }
}
