/**
 * Prompt size estimates. Before a call the engine only has characters; after it Ollama reports
 * `prompt_eval_count`. The ratio seen so far for a model calibrates the next estimate, with a
 * safety factor so an estimate errs on the large side.
 */

export const DEFAULT_CHARS_PER_TOKEN = 4;
const SAFETY_FACTOR = 1.1;

export interface CalibrationSample {
  model: string;
  promptChars: number;
  promptTokens: number;
}

/** Characters per token per model, from what the server reported. */
export function calibrate(samples: Iterable<CalibrationSample>): Map<string, number> {
  const totals = new Map<string, { chars: number; tokens: number }>();
  for (const sample of samples) {
    if (sample.promptTokens <= 0 || sample.promptChars <= 0) continue;
    const entry = totals.get(sample.model) ?? { chars: 0, tokens: 0 };
    entry.chars += sample.promptChars;
    entry.tokens += sample.promptTokens;
    totals.set(sample.model, entry);
  }
  const ratios = new Map<string, number>();
  for (const [model, entry] of totals) ratios.set(model, entry.chars / entry.tokens);
  return ratios;
}

export function estimateTokens(chars: number, charsPerToken: number = DEFAULT_CHARS_PER_TOKEN): number {
  return Math.ceil((chars / charsPerToken) * SAFETY_FACTOR);
}

/** Tokens left for the prompt: the window minus the answer's cap minus a margin. */
export function promptBudget(contextWindow: number, numPredict: number, margin: number): number {
  return contextWindow - numPredict - margin;
}

/** The most characters whose estimate stays within `tokens` (the inverse of `estimateTokens`). */
export function charsWithin(tokens: number, charsPerToken: number = DEFAULT_CHARS_PER_TOKEN): number {
  if (tokens <= 0) return 0;
  let chars = Math.floor((tokens * charsPerToken) / SAFETY_FACTOR);
  while (chars > 0 && estimateTokens(chars, charsPerToken) > tokens) chars -= 1;
  while (estimateTokens(chars + 1, charsPerToken) <= tokens) chars += 1;
  return chars;
}
