/**
 * A small circuit breaker per model: a model that failed every attempt of `threshold` calls in a
 * row is skipped in favour of the agent's fallback models, and tried again, once and without
 * retries, on every `probeEvery`-th call after that; one success closes it again. It counts calls,
 * not seconds, so the same sequence of failures always makes the same choices.
 */
import type { ModelProvider } from './provider.js';

export type BreakerDecision = 'try' | 'probe' | 'skip';

interface ModelRecord {
  /** Calls in a row on which the model failed every attempt. */
  failures: number;
  /** Calls that skipped it since it last failed. */
  skipped: number;
}

export class ModelBreaker {
  private readonly models = new Map<string, ModelRecord>();

  constructor(
    readonly threshold = 2,
    readonly probeEvery = 5,
  ) {}

  /** Whether a call should try `model` normally, try it once, or go straight to its fallback. */
  decide(model: string): BreakerDecision {
    const record = this.models.get(model);
    if (!record || record.failures < this.threshold) return 'try';
    return record.skipped + 1 >= this.probeEvery ? 'probe' : 'skip';
  }

  skipped(model: string): void {
    const record = this.models.get(model);
    if (record) record.skipped += 1;
  }

  failed(model: string): void {
    const record = this.models.get(model) ?? { failures: 0, skipped: 0 };
    this.models.set(model, { failures: record.failures + 1, skipped: 0 });
  }

  succeeded(model: string): void {
    this.models.delete(model);
  }
}

const breakers = new WeakMap<ModelProvider, ModelBreaker>();

/** The breaker of the models behind `provider` (one provider serves one run, batch or worker). */
export function breakerFor(provider: ModelProvider): ModelBreaker {
  let breaker = breakers.get(provider);
  if (!breaker) {
    breaker = new ModelBreaker();
    breakers.set(provider, breaker);
  }
  return breaker;
}
