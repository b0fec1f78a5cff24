/**
 * The per-host gate of a batch: at most `limit` chat calls in flight, and when one ends, the next
 * waiting call is the one that keeps the GPU's work together, not simply the oldest:
 *
 * 1. a call for a model whose calls are running (its decodes are batched with theirs); calls of
 *    other models wait until those are over, then the model of the call started last goes first
 *    (it is loaded; another model may first need a load);
 * 2. among those, the call whose prompt shares the longest beginning with one of the last `limit`
 *    prompts that model was given (a server with as many slots per model as the gate's limit, as
 *    `--parallel` is set, still holds them: each slot keeps the last prompt it served);
 * 3. then the oldest.
 *
 * No call waits for ever: a call passed over `maxBypass` times goes next, whatever its model. The gate only decides
 * when a call starts, never what it asks, so each debate's answers do not depend on it.
 */

/** What the gate knows of a call. */
export interface GateCall {
  model: string;
  /** The prompt's text, in order (messages joined). */
  prompt: string;
}

interface Waiting {
  call: GateCall;
  /** How many later calls went ahead of this one. */
  bypassed: number;
  start(): void;
}

/** How many times a waiting call may be passed over before it goes next whatever its model. */
export const DEFAULT_MAX_BYPASS = 12;

/** Characters two texts have in common from their start. */
export function sharedStart(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let at = 0;
  while (at < end && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

export class CallGate {
  private readonly waiting: Waiting[] = [];
  /** Calls in flight, by model. */
  private readonly running = new Map<string, number>();
  private active = 0;
  private lastModel: string | undefined;
  /** The last `limit` prompts started for each model, newest last. */
  private readonly recentPrompts = new Map<string, string[]>();
  peak = 0;

  /** Calls in flight at most; only `lowerLimit` changes it. */
  constructor(
    public limit: number,
    readonly maxBypass = DEFAULT_MAX_BYPASS,
  ) {}

  /**
   * Lets no more than `to` calls (at least one) be in flight from now on; calls already running
   * finish. Never raises the limit. Returns the limit now in force.
   */
  lowerLimit(to: number): number {
    this.limit = Math.max(1, Math.min(this.limit, Math.floor(to)));
    return this.limit;
  }

  /** Calls running or waiting. */
  get inFlight(): number {
    return this.active + this.waiting.length;
  }

  /** Runs `task` once the gate lets `call` start. */
  async run<T>(call: GateCall, task: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      this.waiting.push({ call, bypassed: 0, start: resolve });
      this.pump();
    });
    try {
      return await task();
    } finally {
      this.active -= 1;
      const left = (this.running.get(call.model) ?? 1) - 1;
      if (left > 0) this.running.set(call.model, left);
      else this.running.delete(call.model);
      this.pump();
    }
  }

  /**
   * Starts waiting calls while there is room. While calls of a model run, calls of other models
   * wait (two models' decodes share the GPU, so running them together saves nothing, and a model
   * that is not resident would need a load) unless they have been passed over `maxBypass` times.
   */
  private pump(): void {
    while (this.active < this.limit && this.waiting.length > 0) {
      const index = this.choose();
      if (index === -1) return;
      for (const entry of this.waiting.slice(0, index)) entry.bypassed += 1;
      const [entry] = this.waiting.splice(index, 1) as [Waiting];
      this.active += 1;
      this.peak = Math.max(this.peak, this.active);
      this.running.set(entry.call.model, (this.running.get(entry.call.model) ?? 0) + 1);
      this.lastModel = entry.call.model;
      const recent = this.recentPrompts.get(entry.call.model) ?? [];
      this.recentPrompts.set(entry.call.model, [...recent, entry.call.prompt].slice(-this.limit));
      entry.start();
    }
  }

  /** The waiting call to start now, or -1 if none may (see the module comment). */
  private choose(): number {
    const overdue = this.waiting.findIndex((entry) => entry.bypassed >= this.maxBypass);
    if (overdue !== -1) return overdue;
    let chosen = -1;
    let best: [number, number] = [-1, -1];
    this.waiting.forEach((entry, index) => {
      const { model, prompt } = entry.call;
      if (this.running.size > 0 && !this.running.has(model)) return;
      const sameModel = model === this.lastModel ? 1 : 0;
      const cached = Math.max(
        0,
        ...(this.recentPrompts.get(model) ?? []).map((recent) => sharedStart(prompt, recent)),
      );
      if (sameModel > best[0] || (sameModel === best[0] && cached > best[1])) {
        best = [sameModel, cached];
        chosen = index;
      }
    });
    return chosen;
  }
}
