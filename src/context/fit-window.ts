/**
 * Keeps a prompt inside its model's context window. Ollama is sent `truncate: false` and the
 * OpenAI-compatible servers refuse a longer prompt, so a prompt that does not fit is an error
 * rather than a silently cut prompt. The size is estimated with the model's measured characters
 * per token (see token-rates.ts). When the estimate is over budget, the longest shared message
 * (the debate so far, the full history) loses its oldest part, marked as such; the system message
 * and the agent's own task are kept whole. A prompt that cannot fit even then is refused with the
 * settings to change (exit 3).
 */
import { promptChars } from '../agents/prompts.js';
import { DEFAULT_CHARS_PER_TOKEN, estimateTokens, promptBudget } from '../core/token-estimate.js';
import type { ChatMessage } from '../llm/provider.js';
import { ContextWindowError } from './context-window-error.js';

/** Tokens kept free besides the answer's cap, for the chat template and estimate error. */
export const WINDOW_MARGIN_TOKENS = 256;

export const OMITTED_MARKER = "[... the earlier part is omitted to fit the model's context window ...]";

/** The longest text (in characters) that the estimate lets through for `tokens` tokens. */
function charsFor(tokens: number, charsPerToken: number): number {
  return Math.floor(((tokens - 1) * charsPerToken) / 1.1);
}

export interface FitResult {
  messages: ChatMessage[];
  /** Characters cut from the shared history (0 when the prompt fit as it was). */
  omittedChars: number;
}

export interface FitLimits {
  contextWindow: number;
  maxTokens: number;
  /** What the prompt is for, for the message when it cannot fit. */
  what: string;
  /** The model's characters per token; default the first guess of 4. */
  charsPerToken?: number;
  /** Tokens kept free besides the answer's cap; default WINDOW_MARGIN_TOKENS. */
  marginTokens?: number;
}

export function fitToWindow(messages: ChatMessage[], limits: FitLimits): FitResult {
  const rate = limits.charsPerToken ?? DEFAULT_CHARS_PER_TOKEN;
  const budget = promptBudget(
    limits.contextWindow,
    limits.maxTokens,
    limits.marginTokens ?? WINDOW_MARGIN_TOKENS,
  );
  const total = promptChars(messages);
  if (estimateTokens(total, rate) <= budget) return { messages, omittedChars: 0 };
  // The system message and the task (the last message) stay whole; the longest of the others gives way.
  const candidates = messages
    .map((message, index) => ({ message, index }))
    .filter(({ index }) => index > 0 && index < messages.length - 1)
    .sort((a, b) => b.message.content.length - a.message.content.length);
  const longest = candidates[0];
  const excess = total - charsFor(budget, rate);
  const room = longest ? longest.message.content.length - excess - OMITTED_MARKER.length - 2 : -1;
  if (!longest || room < 200) {
    throw new ContextWindowError(
      `the context window is too small: the prompt for ${limits.what} does not fit in a context window of ${limits.contextWindow} tokens with ${limits.maxTokens} tokens for the answer, even without the debate so far (at ${rate.toFixed(2)} characters per token); raise model_options.context_window (and the server's own window: llama-server -c, vLLM --max-model-len) or lower the answer's max_tokens`,
    );
  }
  const content = longest.message.content;
  // Keep the heading line, then the most recent part of the history.
  const newline = content.indexOf('\n');
  const heading = newline > 0 && newline < 200 ? content.slice(0, newline) : '';
  const tail = content.slice(content.length - (room - heading.length));
  const shortened = `${heading}${heading ? '\n' : ''}${OMITTED_MARKER}\n${tail.slice(tail.indexOf('\n') + 1 || 0)}`;
  const fitted = messages.map((message, index) =>
    index === longest.index ? { ...message, content: shortened } : message,
  );
  return { messages: fitted, omittedChars: content.length - shortened.length };
}
