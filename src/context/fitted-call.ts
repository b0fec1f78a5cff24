/**
 * One model call whose prompt is kept inside the model's context window: fitted with the model's
 * measured characters per token, sent through safeChat (retries, fallbacks), and, when the server
 * still finds it too long, fitted again with what the server said (the tokens it counted, its real
 * window) and sent again. A window that filled while the model was answering ("Context size has
 * been exceeded") teaches the room the server really had (the prompt plus the answer so far): the
 * prompt is fitted to that, and when its fixed part cannot be shortened enough the answer's cap
 * is lowered instead (to no less than a quarter of it). When even the shortest prompt cannot fit,
 * the error says that the context window was the problem and which settings to change (exit 3).
 */

import { DEFAULT_CHARS_PER_TOKEN, estimateTokens } from '../core/token-estimate.js';
import { schemaAtRate } from '../judging/answer-fields.js';
import { addUsage, messageChars, NO_USAGE } from '../llm/call-usage.js';
import { ContextOverflowError } from '../llm/errors.js';
import type { ChatMessage, ChatRequest, ModelProvider } from '../llm/provider.js';
import { ModelCallFailed, type SafeCallOptions, type SafeCallResult, safeChat } from '../llm/safe-call.js';
import { ContextWindowError } from './context-window-error.js';
import { fitToWindow, WINDOW_MARGIN_TOKENS } from './fit-window.js';

/** Times a prompt the server refused as too long is fitted again before the call gives up. */
const MAX_REFITS = 3;

export interface FittedCallOptions extends SafeCallOptions {
  /** What the prompt is for, in messages: "Avery's opening", "Jude (verdict)". */
  what: string;
  /** Characters per token measured for each model so far in the run (StepContext.tokenRates). */
  rates?: ReadonlyMap<string, number>;
  /** Tokens kept free besides the answer's cap; default fit-window's margin. */
  marginTokens?: number;
}

export interface FittedCallResult extends SafeCallResult {
  /** The messages as sent on the call that answered (cut to the window when they had to be). */
  messages: ChatMessage[];
  /** Characters cut from the shared history (0 when the prompt fit as it was). */
  omittedChars: number;
  /** Times the server refused the prompt as too long and it was fitted again. */
  refits: number;
  /** The answer's cap of the call that answered: lower than asked when a full window made it so. */
  maxTokens: number;
}

/**
 * What the server's refusal teaches: a slower rate, and perhaps a smaller window. A window that
 * filled mid-answer had room for the prompt and the answer so far: when that answer was at least
 * a quarter of the cap, the same prompt goes again with the cap lowered to it; otherwise the
 * window is taken as that room and the prompt is fitted to it with the cap unchanged.
 */
function learn(
  overflow: ContextOverflowError,
  sent: readonly ChatMessage[],
  rate: number,
  window: number,
  caps: { asked: number; current: number },
): { rate: number; window: number; maxTokens: number } {
  if (overflow.duringAnswer) {
    const written = overflow.answerTokens;
    if (written >= Math.ceil(caps.asked / 4) && written < caps.current) {
      return { rate, window, maxTokens: written };
    }
    const prompt = overflow.promptTokens ?? Math.ceil(messageChars(sent) / rate);
    return { rate, window: Math.min(window, prompt + written), maxTokens: caps.current };
  }
  const smaller = overflow.contextWindow !== undefined ? Math.min(window, overflow.contextWindow) : window;
  // Ollama does not say how many tokens it counted: more than the window, at least.
  const tokens = overflow.promptTokens ?? smaller + 1;
  return { rate: Math.min(rate, messageChars(sent) / tokens), window: smaller, maxTokens: caps.current };
}

/** What a thinking model is asked, at the end of its task, so its thinking leaves room to answer. */
export const BRIEF_THINKING =
  'Think briefly before you answer: a few short steps, then write the answer itself.';

/** The messages with the request for brief thinking after the task (the last message). */
function withBriefThinking(messages: ChatMessage[]): ChatMessage[] {
  const last = messages.at(-1);
  if (!last || last.content.includes(BRIEF_THINKING)) return messages;
  return [...messages.slice(0, -1), { ...last, content: `${last.content}\n\n${BRIEF_THINKING}` }];
}

export async function fittedChat(
  provider: ModelProvider,
  request: ChatRequest,
  options: FittedCallOptions,
): Promise<FittedCallResult> {
  let rate = options.rates?.get(request.model) ?? DEFAULT_CHARS_PER_TOKEN;
  let window = request.contextWindow;
  let maxTokens = request.maxTokens;
  let refused = 0;
  let spent = NO_USAGE;
  let overflow: ContextOverflowError | undefined;
  for (let refits = 0; ; refits += 1) {
    let fitted: ReturnType<typeof fitToWindow>;
    try {
      const limits = {
        contextWindow: window,
        maxTokens,
        what: options.what,
        charsPerToken: rate,
        ...(options.marginTokens === undefined ? {} : { marginTokens: options.marginTokens }),
      };
      fitted = fitToWindow(request.think ? withBriefThinking(request.messages) : request.messages, limits);
    } catch (error) {
      if (!(error instanceof ContextWindowError) || overflow === undefined) throw error;
      throw new ContextWindowError(`${error.message}. The server said: ${overflow.message}`, {
        cause: overflow,
      });
    }
    try {
      // A schema's text bounds follow the model's rate, so the longest answer it allows fits the cap.
      const jsonSchema = request.jsonSchema && schemaAtRate(request.jsonSchema, rate);
      // What the window leaves beside the prompt: room for a thinking model's larger budget.
      const room =
        window -
        (options.marginTokens ?? WINDOW_MARGIN_TOKENS) -
        estimateTokens(messageChars(fitted.messages), rate);
      const answer = await safeChat(
        provider,
        { ...request, maxTokens, messages: fitted.messages, ...(jsonSchema ? { jsonSchema } : {}) },
        { ...options, maxTokensCeiling: Math.max(maxTokens, room) },
      );
      return {
        ...answer,
        attempts: answer.attempts + refused,
        usage: addUsage(spent, answer.usage),
        messages: fitted.messages,
        omittedChars: fitted.omittedChars,
        refits,
        maxTokens,
      };
    } catch (error) {
      if (!(error instanceof ModelCallFailed)) throw error;
      const attempts = error.attempts + refused;
      spent = addUsage(spent, error.usage);
      if (!(error.last instanceof ContextOverflowError)) {
        throw refused === 0 ? error : new ModelCallFailed(error.last, attempts, spent);
      }
      overflow = error.last;
      refused = attempts;
      if (refits >= MAX_REFITS) {
        throw new ContextWindowError(
          `the context window is too small: the prompt for ${options.what} was still too long for ${request.model} after it was cut ${refits} times to fit; raise the server's window (llama-server -c, vLLM --max-model-len) or model_options.context_window, or lower the answer's max_tokens. The server said: ${overflow.message}`,
          { cause: overflow },
        );
      }
      ({ rate, window, maxTokens } = learn(overflow, fitted.messages, rate, window, {
        asked: request.maxTokens,
        current: maxTokens,
      }));
      options.onRetry?.({ model: request.model, attempt: refits + 1, delayMs: 0, error: overflow });
    }
  }
}
