/**
 * Records every model call of a knockout debate with the server's own durations, the round it
 * ran in and what it was for. The kind comes from the event the call produced (a statement, a
 * vote, a claims extraction, a summary), not from the prompt's wording, so the benchmark keeps
 * working when prompts change. Cached prompt tokens are read the way Ollama shows them: from a
 * shorter prompt evaluation at the profile's prefill rate.
 */
import type { RunEvent } from '../src/core/events.js';
import type { ChatOptions, ChatRequest, ChatResult, ModelProvider } from '../src/llm/provider.js';
import type { CostProfile } from '../src/mock-ollama/index.js';

/** What a call was for. `load` is a model load asked for on its own, before it is needed. */
export type CallKind = 'statement' | 'judge' | 'claims' | 'summary' | 'commentary' | 'load' | 'other';

/** One call as the server timed it; seconds are simulated. */
export interface RecordedCall {
  /** The round the call ran in: 1 + rounds ended before it started; 0 before round 1. */
  round: number;
  kind: CallKind;
  model: string;
  promptTokens: number;
  cachedTokens: number;
  outputTokens: number;
  loadSeconds: number;
  prefillSeconds: number;
  decodeSeconds: number;
}

/** The event that settles a call's kind: the calls finished since the last one were for it. */
const KIND_OF_EVENT: Partial<Record<RunEvent['type'], CallKind>> = {
  'turn-end': 'statement',
  'vote-cast': 'judge',
  claims: 'claims',
  summary: 'summary',
  commentary: 'commentary',
};

/** A provider that may load a model ahead of its first call (Ollama's load request). */
type LoadingProvider = ModelProvider & {
  load?(model: string, options?: { contextWindow?: number; signal?: AbortSignal }): Promise<void>;
};

/** Wraps a provider; pass `onEvent` to the debate so calls get their kind and round. */
export class RoundRecorder implements ModelProvider {
  readonly calls: RecordedCall[] = [];
  private readonly pending: RecordedCall[] = [];
  private roundsEnded = 0;
  private started = false;

  /** `loadsSoFar` reads the server's count of model loads, to tell a load request that loaded from one that did not. */
  constructor(
    private readonly inner: LoadingProvider,
    private readonly profile: CostProfile,
    private readonly loadsSoFar: () => number = () => 0,
  ) {}

  get host(): string {
    return this.inner.host;
  }

  /** Settles the kind of the calls that produced `event` and counts rounds. */
  readonly onEvent = (event: RunEvent): void => {
    if (event.type === 'round-end') this.roundsEnded += 1;
    const kind = KIND_OF_EVENT[event.type];
    if (kind === undefined) return;
    for (const call of this.pending.splice(0)) call.kind = kind;
  };

  async chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResult> {
    this.started = true;
    const round = this.roundsEnded + 1;
    const result = await this.inner.chat(request, options);
    const prefillSeconds = result.timings.promptEvalMs / 1000;
    const prefilled = Math.round(prefillSeconds * this.profile.prefillTokensPerSecond);
    const call: RecordedCall = {
      round,
      kind: 'other',
      model: request.model,
      promptTokens: result.promptTokens,
      cachedTokens: Math.max(0, result.promptTokens - prefilled),
      outputTokens: result.outputTokens,
      loadSeconds: result.timings.loadMs / 1000,
      prefillSeconds,
      decodeSeconds: result.timings.evalMs / 1000,
    };
    this.calls.push(call);
    this.pending.push(call);
    return result;
  }

  /** A model load asked for before the debate needs the model. */
  async load(model: string, options?: { contextWindow?: number; signal?: AbortSignal }): Promise<void> {
    if (this.inner.load === undefined) return;
    const before = this.loadsSoFar();
    await this.inner.load(model, options);
    this.recordLoad(model, this.loadsSoFar() > before);
  }

  private recordLoad(model: string, loaded: boolean): void {
    this.calls.push({
      round: this.started ? this.roundsEnded + 1 : 0,
      kind: 'load',
      model,
      promptTokens: 0,
      cachedTokens: 0,
      outputTokens: 0,
      loadSeconds: loaded ? this.profile.loadSeconds : 0,
      prefillSeconds: 0,
      decodeSeconds: 0,
    });
  }

  listModels(options?: { signal?: AbortSignal }) {
    return this.inner.listModels(options);
  }

  version(options?: { signal?: AbortSignal }) {
    return this.inner.version(options);
  }
}
