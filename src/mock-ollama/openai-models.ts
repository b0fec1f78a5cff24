/**
 * Which models the OpenAI-compatible side serves and how it lists them: by name, by alias, or
 * (a llama-server started with one model) under any name; `/v1/models` and `/props` as
 * llama-server shows them, or `/v1/models` as vLLM does.
 */
import type { Catalog, ModelEntry } from './catalog.js';
import type { OpenAiSettings } from './server-settings.js';

const CREATED = 1_717_243_200;

/** The id a model is listed under: its name without the implied `:latest`. */
export function openAiModelId(entry: ModelEntry): string {
  return entry.name.replace(/:latest$/, '');
}

/** The window the /v1 side gives a model: the server-wide setting, else the model's own length. */
export function openAiContextLength(entry: ModelEntry, configured: number | undefined): number {
  return configured ?? entry.contextLength;
}

/** The flavour in force. */
export function flavourOf(settings: OpenAiSettings | undefined): 'llama-server' | 'vllm' {
  return settings?.flavour ?? 'llama-server';
}

function aliasesOf(entry: ModelEntry, settings: OpenAiSettings | undefined): string[] {
  const id = openAiModelId(entry);
  return settings?.aliases?.[id] ?? settings?.aliases?.[entry.name] ?? [];
}

/** Whether a name that is not listed is still served (with the first model). */
export function servesAnyName(catalog: Catalog, settings: OpenAiSettings | undefined): boolean {
  return settings?.anyModelName ?? (flavourOf(settings) === 'llama-server' && catalog.list().length === 1);
}

/** The model a `/v1` request names: by name, by alias, or the first one for a server of any name. */
export function openAiEntry(
  catalog: Catalog,
  settings: OpenAiSettings | undefined,
  name: string,
): ModelEntry | undefined {
  const direct = catalog.find(name);
  if (direct) return direct;
  const aliased = catalog.list().find((entry) => aliasesOf(entry, settings).includes(name));
  if (aliased) return aliased;
  return servesAnyName(catalog, settings) ? catalog.list()[0] : undefined;
}

/** The `/v1/models` body. */
export function openAiModels(
  catalog: Catalog,
  configured: number | undefined,
  settings: OpenAiSettings | undefined,
): object {
  if (flavourOf(settings) === 'vllm') {
    return {
      object: 'list',
      data: catalog.list().map((entry) => ({
        id: openAiModelId(entry),
        object: 'model',
        created: CREATED,
        owned_by: 'vllm',
        root: openAiModelId(entry),
        parent: null,
        max_model_len: openAiContextLength(entry, configured),
      })),
    };
  }
  return {
    object: 'list',
    data: catalog.list().map((entry) => ({
      id: openAiModelId(entry),
      aliases: [openAiModelId(entry), ...aliasesOf(entry, settings)],
      tags: [],
      object: 'model',
      created: CREATED,
      owned_by: 'llamacpp',
      meta: {
        vocab_type: 2,
        n_vocab: 128_256,
        n_ctx: openAiContextLength(entry, configured),
        n_ctx_train: entry.contextLength,
        n_params: entry.parameterCount,
        size: entry.sizeBytes,
      },
    })),
  };
}

/**
 * The `/props` body of llama-server, which serves one model: the first in the catalog. `n_ctx` is
 * the window of one slot; `total_slots` the requests it serves at once.
 */
export function openAiProps(catalog: Catalog, configured: number | undefined, slots = 1): object {
  const first = catalog.list()[0];
  const nCtx = first === undefined ? (configured ?? 4096) : openAiContextLength(first, configured);
  return {
    default_generation_settings: { n_ctx: nCtx },
    total_slots: slots,
    model_alias: first === undefined ? '' : openAiModelId(first),
    model_path: first === undefined ? '' : `/models/${openAiModelId(first)}.gguf`,
  };
}
