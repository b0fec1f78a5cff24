/**
 * How the simulator behaves beyond its answers: which server its OpenAI-compatible side speaks
 * like, the aliases it lists, whether it serves any model name, each model's vocabulary (so the
 * characters per token differ by model, as they do for real ones) and what a grammar-constrained
 * answer does with a string that has no `maxLength`. Set in code (`startMockOllama`) or in a
 * script file beside its `rules:`.
 */
import { z } from 'zod';
import { VOCABULARIES, type VocabularyName } from './tokens.js';

/** The OpenAI-compatible side. */
export interface OpenAiSettings {
  /**
   * `llama-server` (the default): `/v1/models` with `aliases` and `meta.n_ctx`, `/props`, and its
   * `exceed_context_size_error`; `vllm`: `/v1/models` with `max_model_len`, no `/props`, and
   * vLLM's words for a prompt that is too long.
   */
  flavour?: 'llama-server' | 'vllm';
  /** Other names a model answers to on `/v1`, listed in its `aliases`. */
  aliases?: Record<string, string[]>;
  /**
   * Answer a chat for a model name that is not listed with the first model, under that model's
   * own name, as a llama-server started with one model does. Default: true for a llama-server
   * serving one model, false otherwise.
   */
  anyModelName?: boolean;
}

/** Everything the settings change. */
export interface ServerSettings {
  openAi?: OpenAiSettings;
  /** The vocabulary of each model (by name); every other model uses `standard`. */
  vocabularies?: Record<string, VocabularyName>;
  /**
   * `fill`: a structured answer whose schema has a string without `maxLength` keeps writing that
   * string until the token cap, as a grammar-constrained model does on llama-server, vLLM and
   * Ollama (the JSON is then cut off, `length`); bounded strings still close early. `close` (the
   * default): every string closes after a sentence or two.
   */
  unboundedStrings?: 'close' | 'fill';
  /**
   * The share of a note-taker's quotes (a JSON `quote` or `claim` asked for word for word) copied
   * with one small mistake: a comma left out, the first letter's case changed, one word changed or
   * left out, as 7-8B models copy. Default 0.25; 0 copies every quote exactly.
   */
  quoteErrors?: number;
}

const vocabularyNames = Object.keys(VOCABULARIES) as [VocabularyName, ...VocabularyName[]];

/** The settings a script file may hold beside its rules. */
export const serverSettingsShape = {
  openAi: z
    .strictObject({
      flavour: z.enum(['llama-server', 'vllm']).optional(),
      aliases: z.record(z.string().min(1), z.array(z.string().min(1))).optional(),
      anyModelName: z.boolean().optional(),
    })
    .optional(),
  vocabularies: z.record(z.string().min(1), z.enum(vocabularyNames)).optional(),
  unboundedStrings: z.enum(['close', 'fill']).optional(),
  quoteErrors: z.number().min(0).max(1).optional(),
};
