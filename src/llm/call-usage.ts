/**
 * What the server counted for one logical model call, summed over every attempt that reached it
 * (retries, fallbacks, a structured answer asked for again): the record keeps what the server
 * really read and wrote, not only what the last attempt did.
 */
import type { ChatMessage, ChatResult } from './provider.js';

export interface CallUsage {
  promptTokens: number;
  /** Of `promptTokens`, those served from the server's prompt cache; absent when no attempt said. */
  cachedPromptTokens?: number;
  outputTokens: number;
  /** Of `outputTokens`, those spent thinking. */
  thinkingTokens?: number;
  /**
   * Characters of the prompts whose tokens `promptTokens` counts, so that the two together give
   * the model's characters per token.
   */
  promptChars: number;
}

export const NO_USAGE: CallUsage = { promptTokens: 0, outputTokens: 0, promptChars: 0 };

/** Characters of the messages' text, the measure prompts are sized by. */
export function messageChars(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + message.content.length, 0);
}

/** The usage of one answer to `messages`. */
export function usageOf(result: ChatResult, messages: readonly ChatMessage[]): CallUsage {
  return {
    promptTokens: result.promptTokens,
    ...(result.cachedPromptTokens === undefined ? {} : { cachedPromptTokens: result.cachedPromptTokens }),
    outputTokens: result.outputTokens,
    ...(result.thinkingTokens ? { thinkingTokens: result.thinkingTokens } : {}),
    // An attempt the server counted no prompt for tells nothing about characters per token.
    promptChars: result.promptTokens > 0 ? messageChars(messages) : 0,
  };
}

export function addUsage(a: CallUsage, b: CallUsage): CallUsage {
  const cached =
    a.cachedPromptTokens === undefined && b.cachedPromptTokens === undefined
      ? undefined
      : (a.cachedPromptTokens ?? 0) + (b.cachedPromptTokens ?? 0);
  const thinking = (a.thinkingTokens ?? 0) + (b.thinkingTokens ?? 0);
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    ...(cached === undefined ? {} : { cachedPromptTokens: cached }),
    outputTokens: a.outputTokens + b.outputTokens,
    ...(thinking > 0 ? { thinkingTokens: thinking } : {}),
    promptChars: a.promptChars + b.promptChars,
  };
}

/** The token fields an event records from a usage: cached tokens only when the server said. */
export function recordedTokens(usage: CallUsage): {
  promptTokens: number;
  cachedPromptTokens?: number;
  outputTokens: number;
  promptChars: number;
} {
  return {
    promptTokens: usage.promptTokens,
    ...(usage.cachedPromptTokens === undefined ? {} : { cachedPromptTokens: usage.cachedPromptTokens }),
    outputTokens: usage.outputTokens,
    promptChars: usage.promptChars,
  };
}
