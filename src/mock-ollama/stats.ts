/**
 * Running totals of what the mock served: request counts, prompt tokens split into cached and
 * prefilled, output tokens, model loads and simulated seconds, overall and per model.
 */

/** Totals for one model. */
export interface MockModelStats {
  /** Completions served (chat and generate, excluding faults that never ran the model). */
  completions: number;
  promptTokens: number;
  cachedPromptTokens: number;
  prefilledPromptTokens: number;
  outputTokens: number;
  modelLoads: number;
  simulatedSeconds: number;
}

/** Totals for a whole server. */
export interface MockStats extends MockModelStats {
  /** Every HTTP request received. */
  requests: number;
  /** Requests to /api/chat. */
  chatRequests: number;
  /** Requests to /api/generate. */
  generateRequests: number;
  /** Requests answered by a scripted fault. */
  faults: number;
  /** Simulated seconds the GPU was busy: reading or decoding any request, or loading a model. */
  gpuBusySeconds: number;
  /** Decode steps the GPU ran (a step of a model's batch writes one token of each of its sequences). */
  gpuDecodeSteps: number;
  /** Tokens those steps wrote: divided by the steps, the mean sequences a decode step served. */
  gpuDecodedTokens: number;
  /** The same totals per model, keyed by the normalised name (e.g. `llama3:latest`). */
  perModel: Record<string, MockModelStats>;
}

function emptyModelStats(): MockModelStats {
  return {
    completions: 0,
    promptTokens: 0,
    cachedPromptTokens: 0,
    prefilledPromptTokens: 0,
    outputTokens: 0,
    modelLoads: 0,
    simulatedSeconds: 0,
  };
}

/** One completed simulation, as added to the totals. */
export interface CompletionRecord {
  model: string;
  promptTokens: number;
  cachedPromptTokens: number;
  outputTokens: number;
  simulatedSeconds: number;
}

/** Mutable totals with snapshot and reset. */
export class StatsBook {
  private totals: MockStats = StatsBook.empty();

  private static empty(): MockStats {
    return {
      ...emptyModelStats(),
      requests: 0,
      chatRequests: 0,
      generateRequests: 0,
      faults: 0,
      gpuBusySeconds: 0,
      gpuDecodeSteps: 0,
      gpuDecodedTokens: 0,
      perModel: {},
    };
  }

  private model(name: string): MockModelStats {
    const existing = this.totals.perModel[name];
    if (existing !== undefined) return existing;
    const created = emptyModelStats();
    this.totals.perModel[name] = created;
    return created;
  }

  /** Counts an HTTP request, by endpoint. */
  request(path: string): void {
    this.totals.requests++;
    if (path === '/api/chat') this.totals.chatRequests++;
    if (path === '/api/generate') this.totals.generateRequests++;
  }

  /** Counts a scripted fault. */
  fault(): void {
    this.totals.faults++;
  }

  /** Counts a model load. */
  load(model: string): void {
    this.totals.modelLoads++;
    this.model(model).modelLoads++;
  }

  /** Adds one completion. */
  completion(record: CompletionRecord): void {
    for (const target of [this.totals, this.model(record.model)]) {
      target.completions++;
      target.promptTokens += record.promptTokens;
      target.cachedPromptTokens += record.cachedPromptTokens;
      target.prefilledPromptTokens += record.promptTokens - record.cachedPromptTokens;
      target.outputTokens += record.outputTokens;
      target.simulatedSeconds += record.simulatedSeconds;
    }
  }

  /** A deep copy of the totals. */
  snapshot(): MockStats {
    return structuredClone(this.totals);
  }

  /** Starts all totals from zero again. */
  reset(): void {
    this.totals = StatsBook.empty();
  }
}
