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
 * The debates of a batch take part as parties (`GateParty`, `join`/`leave`). Before the gate
 * switches to another model, it waits for the parties that are between two calls and last called
 * the model that ran, for at most `holdMs` after their call ended: a debate whose call just ended is
 * about to send its next one, often to the same model, and letting the other model in first would
 * leave that call to decode alone afterwards, a phase behind the other debates, so that the two
 * models' turns of the debates never line up again (decision 028).
 *
 * No call waits for ever: a call passed over `maxBypass` times goes next, whatever its model (by
 * default 12 times per call the gate takes at once: with eight debates at once, one model's turn of
 * all of them starts dozens of calls). The gate only decides when a call starts, never what it asks,
 * so each debate's answers do not depend on it.
 */

/** A debate using the gate: whether it has calls running or waiting, and what it called last. */
export class GateParty {
  /** Its calls in flight, on every gate it uses. */
  running = 0;
  /** Its calls waiting, on every gate it uses. */
  waiting = 0;
  /** The model of its last call to end, and when it ended (ms since the epoch). */
  lastModel: string | undefined;
  endedAt = 0;
}

/** What the gate knows of a call. */
export interface GateCall {
  model: string;
  /** The prompt's text, in order (messages joined). */
  prompt: string;
  /** The debate the call belongs to, if it takes part as a party. */
  party?: GateParty;
}

interface Waiting {
  call: GateCall;
  /** How many later calls went ahead of this one. */
  bypassed: number;
  start(): void;
}

/**
 * How many times a waiting call may be passed over before it goes next whatever its model, per
 * call the gate takes at once.
 */
export const DEFAULT_MAX_BYPASS = 12;

/** How long (ms) the gate waits, before switching models, for a party between two calls. */
export const DEFAULT_HOLD_MS = 1000;

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
  private readonly parties = new Set<GateParty>();
  private holdTimer: NodeJS.Timeout | undefined;
  peak = 0;

  /** Calls in flight at most; only `lowerLimit` changes it. */
  constructor(
    public limit: number,
    readonly maxBypass = DEFAULT_MAX_BYPASS * limit,
    readonly holdMs = DEFAULT_HOLD_MS,
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

  /** A debate starts using the gate. */
  join(party: GateParty): void {
    this.parties.add(party);
  }

  /** A debate is over: the gate no longer waits for it. */
  leave(party: GateParty): void {
    this.parties.delete(party);
    this.pump();
  }

  /** Runs `task` once the gate lets `call` start. */
  async run<T>(call: GateCall, task: () => Promise<T>): Promise<T> {
    const { party } = call;
    await new Promise<void>((resolve) => {
      if (party) party.waiting += 1;
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
      if (party) {
        party.running -= 1;
        party.lastModel = call.model;
        party.endedAt = Date.now();
      }
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
      const entry = this.waiting[index] as Waiting;
      if (entry.bypassed < this.maxBypass && this.holdBeforeSwitch(entry.call.model)) return;
      for (const passed of this.waiting.slice(0, index)) passed.bypassed += 1;
      this.waiting.splice(index, 1);
      this.active += 1;
      this.peak = Math.max(this.peak, this.active);
      this.running.set(entry.call.model, (this.running.get(entry.call.model) ?? 0) + 1);
      this.lastModel = entry.call.model;
      const recent = this.recentPrompts.get(entry.call.model) ?? [];
      this.recentPrompts.set(entry.call.model, [...recent, entry.call.prompt].slice(-this.limit));
      const { party } = entry.call;
      if (party) {
        party.waiting -= 1;
        party.running += 1;
      }
      entry.start();
    }
  }

  /**
   * Whether starting a call of `model` now would switch away from the model that ran last while a
   * party that last called that model is between two calls (for at most `holdMs` after its call
   * ended); if so, the gate looks again when that time is up.
   */
  private holdBeforeSwitch(model: string): boolean {
    if (this.running.size > 0 || this.lastModel === undefined || model === this.lastModel) return false;
    const now = Date.now();
    let until = 0;
    for (const party of this.parties) {
      if (party.running > 0 || party.waiting > 0 || party.lastModel !== this.lastModel) continue;
      const end = party.endedAt + this.holdMs;
      if (end > now) until = Math.max(until, end);
    }
    if (until === 0) return false;
    if (this.holdTimer === undefined) {
      this.holdTimer = setTimeout(() => {
        this.holdTimer = undefined;
        this.pump();
      }, until - now);
    }
    return true;
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
