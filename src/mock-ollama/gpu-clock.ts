/**
 * One simulated GPU shared by every request the server runs, paced in real time (`msPerSecond`
 * real milliseconds per simulated second).
 *
 * - Decodes of one loaded model are batched, as llama.cpp does for the parallel slots Ollama gives
 *   a model: each step writes one token of every decoding sequence of that model, and a step of a
 *   batch of b takes `1 + batchStepGrowth × (b - 1)` times a lone step (decode reads the weights
 *   once per step whatever the batch, so the step grows only with the sequences' own work).
 * - Anything else shares the GPU evenly: each model's decode batch and each prompt being read
 *   (prefill is compute-bound, so two prompts at once each go at half the rate) get an equal share,
 *   so two models never both decode at full speed.
 * - It is busy while any request is being read or decoded or a model is loading; `busySeconds`
 *   is that time in simulated seconds.
 * - It counts the decode steps it ran (one per model's batch per step) and the tokens they wrote,
 *   so `decodeSteps()` tells how many sequences a step served on average.
 *
 * Events (a prompt read, a token reached) are settled at the simulated time they fall on, not when
 * the timer that noticed them fired, so timer lag does not count as work.
 */
import type { CostProfile } from './profiles.js';

interface Waiter {
  tokens: number;
  resolve(reached: boolean): void;
}

interface Job {
  model: string;
  /** Prompt tokens still to read. */
  prefillLeft: number;
  /** Tokens written so far (fractional between steps). */
  decoded: number;
  decodeTotal: number;
  waiters: Waiter[];
}

/** A request on the GPU: wait for its prompt, then for its tokens; `end` it when it is over. */
export interface GpuJob {
  /** Resolves true when `tokens` output tokens are written (0: the prompt is read); false if aborted. */
  reach(tokens: number, signal: AbortSignal): Promise<boolean>;
  /** Takes the request off the GPU (finished or abandoned). */
  end(): void;
}

/** How much longer a decode step of the batch gets per extra sequence (see the module comment). */
export const DEFAULT_BATCH_STEP_GROWTH = 0.2;

const EPSILON = 1e-9;

export class GpuClock {
  private readonly jobs = new Set<Job>();
  /** Real time (ms) up to which the state is settled. */
  private settledAt = Date.now();
  private busy = 0;
  /** Decode steps run (each model's batch steps separately) and the tokens they wrote. */
  private steps = 0;
  private stepTokens = 0;
  /** Real time (ms) at which the last announced load ends. */
  private loadEnd = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly profile: CostProfile,
    private readonly msPerSecond: number,
  ) {}

  /** Simulated seconds during which the GPU was busy. */
  busySeconds(): number {
    this.settle(Date.now());
    return this.busy;
  }

  /** Decode steps run so far and the tokens they wrote (tokens / steps: sequences per step). */
  decodeSteps(): { steps: number; tokens: number } {
    this.settle(Date.now());
    return { steps: this.steps, tokens: this.stepTokens };
  }

  /** Starts counting busy time and decode steps from zero again. */
  reset(): void {
    this.settle(Date.now());
    this.busy = 0;
    this.steps = 0;
    this.stepTokens = 0;
  }

  /** A model load that ends at real time `readyAt`: the GPU is busy (unusable for it) meanwhile. */
  noteLoad(readyAt: number): void {
    this.settle(Date.now());
    this.loadEnd = Math.max(this.loadEnd, readyAt);
  }

  /** Puts a request on the GPU now: `prefill` prompt tokens to read, then `output` tokens to write. */
  start(model: string, prefill: number, output: number): GpuJob {
    this.settle(Date.now());
    const job: Job = { model, prefillLeft: prefill, decoded: 0, decodeTotal: output, waiters: [] };
    this.jobs.add(job);
    this.schedule();
    return {
      reach: (tokens, signal) => this.reach(job, tokens, signal),
      end: () => {
        if (!this.jobs.has(job)) return;
        this.settle(Date.now());
        this.jobs.delete(job);
        for (const waiter of job.waiters) waiter.resolve(false);
        job.waiters = [];
        this.schedule();
      },
    };
  }

  private reach(job: Job, tokens: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    this.settle(Date.now());
    if (this.reached(job, tokens)) return Promise.resolve(true);
    if (!this.jobs.has(job)) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const onAbort = (): void => {
        job.waiters = job.waiters.filter((w) => w !== waiter);
        resolve(false);
      };
      const waiter: Waiter = {
        tokens,
        resolve: (reached) => {
          signal.removeEventListener('abort', onAbort);
          resolve(reached);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      job.waiters.push(waiter);
      this.schedule();
    });
  }

  private reached(job: Job, tokens: number): boolean {
    return job.prefillLeft <= EPSILON && job.decoded >= Math.min(tokens, job.decodeTotal) - EPSILON;
  }

  /** Tokens per simulated second each job makes now: prompt tokens while reading, then output tokens. */
  private rates(): Map<Job, number> {
    const decoding = new Map<string, Job[]>();
    let shares = 0;
    for (const job of this.jobs) {
      if (job.prefillLeft > EPSILON) shares++;
      else if (job.decoded < job.decodeTotal - EPSILON) {
        const batch = decoding.get(job.model);
        if (batch === undefined) {
          decoding.set(job.model, [job]);
          shares++;
        } else batch.push(job);
      }
    }
    const rates = new Map<Job, number>();
    if (shares === 0) return rates;
    const growth = this.profile.batchStepGrowth ?? DEFAULT_BATCH_STEP_GROWTH;
    for (const job of this.jobs) {
      if (job.prefillLeft > EPSILON) rates.set(job, this.profile.prefillTokensPerSecond / shares);
    }
    for (const batch of decoding.values()) {
      const step = (1 + growth * (batch.length - 1)) / this.profile.decodeTokensPerSecond;
      for (const job of batch) rates.set(job, 1 / (step * shares));
    }
    return rates;
  }

  /** Simulated seconds until a job's next event (prompt read, a waiter's token, its last token). */
  private untilNext(rates: Map<Job, number>): number {
    let next = Number.POSITIVE_INFINITY;
    for (const [job, rate] of rates) {
      if (job.prefillLeft > EPSILON) {
        next = Math.min(next, job.prefillLeft / rate);
        continue;
      }
      const targets = [job.decodeTotal, ...job.waiters.map((w) => Math.min(w.tokens, job.decodeTotal))];
      for (const target of targets) {
        if (target > job.decoded + EPSILON) next = Math.min(next, (target - job.decoded) / rate);
      }
    }
    return next;
  }

  /** Advances the simulation to real time `now`, settling every event on its own simulated time. */
  private settle(now: number): void {
    if (this.msPerSecond <= 0) {
      this.settledAt = now;
      return;
    }
    while (this.settledAt < now) {
      const rates = this.rates();
      const span = (now - this.settledAt) / this.msPerSecond;
      const step = Math.min(span, this.untilNext(rates));
      if (rates.size > 0) this.busy += step;
      else {
        const loading = Math.max(0, Math.min(now, this.loadEnd) - this.settledAt) / this.msPerSecond;
        this.busy += Math.min(step, loading);
      }
      const stepping = new Set<string>();
      for (const [job, rate] of rates) {
        if (job.prefillLeft > EPSILON) job.prefillLeft = Math.max(0, job.prefillLeft - rate * step);
        else {
          job.decoded = Math.min(job.decodeTotal, job.decoded + rate * step);
          // Every sequence of a model's batch writes one token per step of that batch.
          this.stepTokens += rate * step;
          if (!stepping.has(job.model)) {
            stepping.add(job.model);
            this.steps += rate * step;
          }
        }
      }
      this.settledAt = step === span ? now : this.settledAt + step * this.msPerSecond;
      this.wake();
    }
  }

  private wake(): void {
    for (const job of this.jobs) {
      const ready = job.waiters.filter((w) => this.reached(job, w.tokens));
      if (ready.length === 0) continue;
      job.waiters = job.waiters.filter((w) => !ready.includes(w));
      for (const waiter of ready) waiter.resolve(true);
    }
  }

  /** Arms one timer for the next event anyone waits on. */
  private schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.msPerSecond <= 0 || ![...this.jobs].some((job) => job.waiters.length > 0)) return;
    const next = this.untilNext(this.rates());
    if (!Number.isFinite(next)) return;
    const at = this.settledAt + next * this.msPerSecond;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.settle(Math.max(Date.now(), at));
        this.schedule();
      },
      Math.max(0, at - Date.now()),
    );
  }
}
