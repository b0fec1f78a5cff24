/**
 * Which chat template a model gets: by its family, read from the name (`llama3:8b`,
 * `library/mistral`, `qwen2.5-7b-instruct`), unless the server was told otherwise.
 */
import { normalizeModelName } from './catalog.js';
import { type ChatTemplate, chatTemplate, TEMPLATE_NAMES, type TemplateName } from './chat-templates.js';

// Checked in order against the base name (no namespace, no tag), lower-cased.
const FAMILIES: ReadonlyArray<[RegExp, TemplateName]> = [
  [/^llama-?3/, 'llama3'],
  // Mistral's later models (nemo, small, large) ship other templates.
  [/^mistral(?!-(?:nemo|small|large))/, 'mistral'],
  [/^qwen/, 'chatml'],
  [/^gemma[23]/, 'gemma2'],
];

/** The template Ollama's library ships for a model of this name; `generic` when unknown. */
export function templateNameFor(model: string): TemplateName {
  const name = model.trim().toLowerCase();
  const base = name.slice(name.lastIndexOf('/') + 1).split(':')[0] ?? name;
  return FAMILIES.find(([pattern]) => pattern.test(base))?.[1] ?? 'generic';
}

/** Chooses templates by family, with per-model overrides (`'*'` overrides every model). */
export class TemplateChoice {
  private readonly overrides = new Map<string, TemplateName>();

  constructor(overrides: Readonly<Record<string, string>> = {}) {
    for (const [model, template] of Object.entries(overrides)) {
      if (!(TEMPLATE_NAMES as readonly string[]).includes(template)) {
        throw new Error(
          `unknown chat template "${template}" for model "${model}" (expected one of: ${TEMPLATE_NAMES.join(', ')})`,
        );
      }
      this.overrides.set(model === '*' ? '*' : normalizeModelName(model), template as TemplateName);
    }
  }

  /** The template for a model name as requested (with or without `:latest`). */
  for(model: string): ChatTemplate {
    const chosen =
      this.overrides.get(normalizeModelName(model)) ?? this.overrides.get('*') ?? templateNameFor(model);
    return chatTemplate(chosen);
  }
}
