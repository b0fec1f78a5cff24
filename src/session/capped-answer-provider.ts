/**
 * A model server that answers every call at its cap, without a model: free text of the answer's
 * token cap at the model's characters per token, a structured answer at the largest its schema
 * allows. It counts each prompt's tokens at the model's measured rate and holds each call to the
 * window as a server that fixes its window does (llama-server): a prompt over the window is refused
 * with the tokens counted, an answer that would run past it stops when the window is full. So a
 * debate driven against it meets every refusal and every cut the real run would meet, at once.
 */

import { OMITTED_MARKER } from '../context/fit-window.js';
import { DEFAULT_CHARS_PER_TOKEN } from '../core/token-estimate.js';
import { ContextOverflowError } from '../llm/errors.js';
import type { ChatMessage, ChatOptions, ChatRequest, ChatResult, ModelProvider } from '../llm/provider.js';
import { filledAnswer, fillerText } from './filled-answer.js';

/** Tokens a chat template adds around each message (ChatML's role markers and line ends). */
const TEMPLATE_TOKENS_PER_MESSAGE = 4;

/** One call as the server received it. */
export interface CappedCall {
  model: string;
  /** Prompt tokens counted at the model's rate. */
  promptTokens: number;
  maxTokens: number;
  contextWindow: number;
  /** The debate so far was shortened to fit the window. */
  shortened: boolean;
  /** Refused as too long, or stopped when the window filled. */
  overflowed: boolean;
}

export class CappedAnswerProvider implements ModelProvider {
  readonly host = 'the whole debate at its caps';
  readonly calls: CappedCall[] = [];

  constructor(private readonly rates: ReadonlyMap<string, number>) {}

  private rate(model: string): number {
    return this.rates.get(model) ?? DEFAULT_CHARS_PER_TOKEN;
  }

  private promptTokens(model: string, messages: readonly ChatMessage[]): number {
    const chars = messages.reduce((sum, message) => sum + message.content.length, 0);
    return Math.ceil(chars / this.rate(model)) + TEMPLATE_TOKENS_PER_MESSAGE * messages.length;
  }

  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResult> {
    const { model, contextWindow: window } = request;
    const promptTokens = this.promptTokens(model, request.messages);
    const call: CappedCall = {
      model,
      promptTokens,
      maxTokens: request.maxTokens,
      contextWindow: window,
      shortened: request.messages.some((message) => message.content.includes(OMITTED_MARKER)),
      overflowed: false,
    };
    this.calls.push(call);
    const details = { host: this.host, model, promptTokens, contextWindow: window };
    if (promptTokens >= window) {
      call.overflowed = true;
      throw new ContextOverflowError(
        `request (${promptTokens} tokens) exceeds the available context size (${window} tokens), try increasing it`,
        { ...details, status: 400 },
      );
    }
    const room = window - promptTokens;
    if (request.maxTokens > room) {
      call.overflowed = true;
      throw new ContextOverflowError('Context size has been exceeded.', {
        ...details,
        status: 500,
        duringAnswer: true,
        answerTokens: room,
      });
    }
    const rate = this.rate(model);
    const structured = request.jsonSchema !== undefined;
    const text = structured
      ? JSON.stringify(filledAnswer(request.jsonSchema))
      : fillerText(Math.floor(request.maxTokens * rate));
    options.onDelta?.(text);
    return {
      text,
      model,
      promptTokens,
      outputTokens: structured
        ? Math.min(request.maxTokens, Math.ceil(text.length / rate))
        : request.maxTokens,
      stopReason: structured ? 'stop' : 'length',
      timings: { totalMs: 0, loadMs: 0, promptEvalMs: 0, evalMs: 0 },
    };
  }

  async listModels() {
    return [];
  }

  async version() {
    return this.host;
  }
}
