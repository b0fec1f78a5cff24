/**
 * Each model's characters per token, measured in this run: the events record, for every model
 * call, the characters of the prompts sent and the prompt tokens the server counted for them
 * (Ollama's `prompt_eval_count`, `usage.prompt_tokens`). A fixed 4 characters per token is only the
 * first guess for a model nothing has been measured on yet; a tiny vocabulary reads 1.5.
 *
 * The rates are taken from the log as it stood when a step began, so a resumed run, which replays
 * the same log, fits every prompt exactly as the uninterrupted run did, and calls made side by
 * side within a step all see the same rates whatever order they finish in.
 */
import { type CalibrationSample, calibrate } from '../core/token-estimate.js';

/** The measurement an event carries, if it records a model call the server counted. */
export function promptSampleOf(event: object): CalibrationSample | undefined {
  const { model, promptChars, promptTokens } = event as {
    model?: unknown;
    promptChars?: unknown;
    promptTokens?: unknown;
  };
  if (typeof model !== 'string' || typeof promptChars !== 'number' || typeof promptTokens !== 'number') {
    return undefined;
  }
  return promptChars > 0 && promptTokens > 0 ? { model, promptChars, promptTokens } : undefined;
}

/** Collects the run's measurements as events are read or appended. */
export class MeasuredRates {
  private readonly samples: CalibrationSample[] = [];

  add(event: object): void {
    const sample = promptSampleOf(event);
    if (sample) this.samples.push(sample);
  }

  /** Characters per token per model, from everything added so far. */
  snapshot(): ReadonlyMap<string, number> {
    return calibrate(this.samples);
  }
}
