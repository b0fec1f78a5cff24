/**
 * Seats a person behind the provider interface: a call for the reserved model `person` is the
 * person's turn to speak, answered by whatever reads their words (the terminal, a pipe); every
 * other call goes to the model servers as before. The statement comes back as a model's would, so
 * the cap, the speaking timer and the word limit cut it in the same places.
 */
import { PERSON_MODEL, PersonAbsent } from '../core/person-seat.js';
import type {
  ChatMessage,
  ChatOptions,
  ChatRequest,
  ChatResult,
  ModelInfo,
  ModelProvider,
} from './provider.js';

/** A person's words are counted as a model's tokens at this rate (about 0.75 words a token). */
export const TOKENS_PER_WORD = 4 / 3;

/**
 * The speaking rate a person's statement is timed at where a debate has a time limit but no
 * speaking timer of its own (a formal debate's statements): the knockout timer's default rate,
 * 3.75 tokens a second, about 2.8 words a second or 169 a minute.
 */
export const PERSON_TOKENS_PER_SECOND = 3.75;

/** How many of a person's words fit in `seconds` of speaking time at `tokensPerSecond`. */
export function wordsInSeconds(seconds: number, tokensPerSecond = PERSON_TOKENS_PER_SECOND): number {
  // The small step keeps a whole number of words whole despite the 4/3 rate's rounding.
  return Math.floor((seconds * tokensPerSecond) / TOKENS_PER_WORD + 1e-9);
}

/** How many of a person's words a cap of `tokens` holds. */
export function wordsInTokens(tokens: number): number {
  return Math.floor(tokens / TOKENS_PER_WORD + 1e-9);
}

/** The first `limit` words of `text`, its spacing kept. */
export function firstWords(text: string, limit: number): string {
  let kept = 0;
  let out = '';
  for (const piece of text.trim().split(/(\s+)/)) {
    if (piece.trim() !== '') {
      if (kept === limit) break;
      kept += 1;
    }
    out += piece;
  }
  return out.trimEnd();
}

export function personTokens(text: string): number {
  const words = text.split(/\s+/).filter((word) => word !== '').length;
  return Math.ceil(words * TOKENS_PER_WORD);
}

/** What the person is asked for: the request as a model would get it, and its limits. */
export interface PersonTurn {
  messages: readonly ChatMessage[];
  /** The most tokens the statement may hold before it is cut. */
  maxTokens: number;
  signal?: AbortSignal;
}

/** Reads the person's statements; `undefined` when their input ended before they spoke. */
export interface PersonInput {
  statement(turn: PersonTurn): Promise<{ text: string } | undefined>;
}

export class PodiumProvider implements ModelProvider {
  readonly host: string;
  readonly contextWindow?: ModelProvider['contextWindow'];
  readonly servesAnyModel?: ModelProvider['servesAnyModel'];
  readonly load?: ModelProvider['load'];

  /**
   * `stopRequested` is asked while the person has not spoken yet, every `stopCheckMs`: a stop asked
   * for then (Ctrl-C, `agora stop`, the viewer's Stop) ends the wait at once and pauses the run at
   * the person's turn, since the step in flight is the person's and would otherwise never end.
   */
  constructor(
    private readonly inner: ModelProvider,
    private readonly person: PersonInput,
    private readonly waiting: { stopRequested?: () => boolean; stopCheckMs?: number } = {},
  ) {
    this.host = inner.host;
    if (inner.contextWindow) this.contextWindow = inner.contextWindow.bind(inner);
    if (inner.servesAnyModel) this.servesAnyModel = inner.servesAnyModel.bind(inner);
    if (inner.load) this.load = inner.load.bind(inner);
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResult> {
    if (request.model !== PERSON_MODEL) return this.inner.chat(request, options);
    if (request.jsonSchema) {
      throw new Error(
        'a structured answer was asked of the person at the podium; only statements are theirs',
      );
    }
    const started = Date.now();
    const spoken = await this.listen(request, options.signal);
    if (spoken === 'stopped') {
      throw new PersonAbsent("the run was stopped while it waited for the person's statement");
    }
    if (spoken === undefined || spoken.text.trim() === '') {
      throw new PersonAbsent("the person's input ended before their statement");
    }
    // A model stops at its cap (`num_predict`): the person's statement ends there too, and what is
    // counted against the debate's budgets is what is recorded, not what was typed.
    const whole = spoken.text.trim();
    const text = firstWords(whole, wordsInTokens(request.maxTokens));
    // The statement reaches the live view as a model's streamed text does.
    options.onDelta?.(text);
    const totalMs = Date.now() - started;
    return {
      text,
      promptTokens: 0,
      outputTokens: personTokens(text),
      stopReason: text.length < whole.length ? 'length' : 'stop',
      timings: { totalMs, loadMs: 0, promptEvalMs: 0, evalMs: totalMs },
      model: PERSON_MODEL,
    };
  }

  /** The person's statement, or `stopped` when a stop was asked for before they gave it. */
  private async listen(
    request: ChatRequest,
    signal: AbortSignal | undefined,
  ): Promise<{ text: string } | undefined | 'stopped'> {
    const stopRequested = this.waiting.stopRequested;
    const turn = new AbortController();
    const follow = () => turn.abort(signal?.reason);
    if (signal?.aborted) follow();
    signal?.addEventListener('abort', follow, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const stopped = new Promise<'stopped'>((resolve) => {
      if (!stopRequested) return;
      const check = () => {
        if (!stopRequested()) return;
        clearInterval(timer);
        resolve('stopped');
      };
      timer = setInterval(check, this.waiting.stopCheckMs ?? 200);
      check();
    });
    try {
      return await Promise.race([
        this.person.statement({
          messages: request.messages,
          maxTokens: request.maxTokens,
          signal: turn.signal,
        }),
        stopped,
      ]);
    } finally {
      clearInterval(timer);
      signal?.removeEventListener('abort', follow);
      // The person's input stops waiting too: a viewer's turn is withdrawn, a terminal stops reading.
      turn.abort();
    }
  }

  listModels(options?: { signal?: AbortSignal }): Promise<ModelInfo[]> {
    return this.inner.listModels(options);
  }

  version(options?: { signal?: AbortSignal }): Promise<string> {
    return this.inner.version(options);
  }
}
