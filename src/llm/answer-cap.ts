/**
 * The answer's cap, enforced by the reader. A server is asked for at most `maxTokens` tokens, but
 * one that ignores the cap (or a proxy that drops it) can stream without end: the reader counts
 * what arrives, one token per streamed piece as servers send them, and the characters, and stops
 * reading at whichever cap comes first, so an answer never costs more than its cap.
 */

/**
 * Characters a piece of the answer may average per token of the cap before the reader stops.
 * Real tokenizers average 3 to 5 characters a token on prose; a whole answer averaging more than
 * 8 is not text a model wrote token by token.
 */
export const MAX_CHARS_PER_TOKEN = 8;

/** Counts a streamed answer against its cap in tokens and in characters. */
export class AnswerCap {
  tokens = 0;
  chars = 0;
  /** True once a piece came past the cap: the reader stopped there and the answer is cut. */
  reached = false;
  readonly maxChars: number;

  constructor(readonly maxTokens: number) {
    this.maxChars = Math.max(1, maxTokens) * MAX_CHARS_PER_TOKEN;
  }

  /**
   * Counts one streamed piece of `chars` characters. False when it goes past the cap: the piece
   * is not part of the answer and the reader stops.
   */
  admit(chars: number): boolean {
    if (this.reached) return false;
    if (this.tokens + 1 > Math.max(1, this.maxTokens) || this.chars + chars > this.maxChars) {
      this.reached = true;
      return false;
    }
    this.tokens += 1;
    this.chars += chars;
    return true;
  }

  /** What the log says when the reader stopped. */
  describe(): string {
    return `the server kept streaming past the answer's cap of ${this.maxTokens} tokens; stopped reading after ${this.tokens} tokens (${this.chars} characters) and closed the request`;
  }
}
