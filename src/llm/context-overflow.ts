/**
 * Recognises a server's "the prompt is longer than the context window" answer and reads the
 * numbers it gives, so the caller can re-fit the prompt instead of sending it again:
 * - llama-server: HTTP 400 `{"error": {"type": "exceed_context_size_error", "n_prompt_tokens",
 *   "n_ctx", ...}}` (older builds: "the request exceeds the available context size");
 * - vLLM: HTTP 400 "This model's maximum context length is N tokens. However, your request has M
 *   input tokens" (or "you requested T tokens (M in the messages, X in the completion)", or
 *   "'max_tokens' ... is too large: X. This model's maximum context length is N tokens and your
 *   request has M input tokens");
 * - Ollama with `truncate: false`: "the input length exceeds the context length", no numbers;
 * - llama-server whose window (or the cache its slots share) fills while it writes the answer: an
 *   error inside the 200 stream, "Context size has been exceeded.", no numbers.
 */

/** What an overflow answer says; either number may be unknown. */
export interface OverflowNumbers {
  promptTokens?: number;
  contextWindow?: number;
}

const OVERFLOW_WORDS =
  /exceed_context_size_error|exceeds? the available context size|input length exceeds the context length|maximum context length|context length exceeded|context_length_exceeded|prompt is too long|too many tokens|context size has been exceeded/i;

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function firstNumber(text: string, patterns: RegExp[]): number | undefined {
  for (const pattern of patterns) {
    const found = pattern.exec(text)?.[1];
    if (found !== undefined) return positive(Number(found));
  }
  return undefined;
}

/** The overflow an error answer describes, or undefined when it is some other error. */
export function overflowOf(body: string, message: string): OverflowNumbers | undefined {
  let fields: Record<string, unknown> | undefined;
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (parsed.error !== null && typeof parsed.error === 'object') {
      fields = parsed.error as Record<string, unknown>;
    }
  } catch {
    // Not JSON: the words decide.
  }
  const typed = fields?.type === 'exceed_context_size_error';
  if (!typed && !OVERFLOW_WORDS.test(message) && !OVERFLOW_WORDS.test(body)) return undefined;
  const text = `${message} ${body}`;
  const promptTokens =
    positive(fields?.n_prompt_tokens) ??
    firstNumber(text, [
      /request has (\d+) (?:input|prompt) tokens/i,
      /\((\d+) in the messages/i,
      /request \((\d+) tokens\)/i,
    ]);
  const contextWindow =
    positive(fields?.n_ctx) ??
    firstNumber(text, [
      /maximum context length is (\d+)/i,
      /available context size \((\d+) tokens\)/i,
      /context length of (\d+)/i,
    ]);
  return {
    ...(promptTokens === undefined ? {} : { promptTokens }),
    ...(contextWindow === undefined ? {} : { contextWindow }),
  };
}
