/**
 * The tokens a run's model calls cost, per model and for the whole run, as the servers counted
 * them over every attempt: prompt tokens, of which served from the server's prompt cache, and
 * output tokens. The cache share is shown only where the server reported cached tokens (the
 * OpenAI-compatible servers do; Ollama does not, so its models show none rather than a guess).
 */
import { type TextLayout, WIDE_LAYOUT } from '../../core/text-layout.js';
import { renderTextTable } from '../../render/text-table.js';

/** What an event records of one model call (or of the calls one step made). */
export interface CallRecord {
  model?: string;
  promptTokens: number;
  cachedPromptTokens?: number;
  outputTokens: number;
  attempts?: number;
}

export interface TokenUsageRow {
  model: string;
  calls: number;
  promptTokens: number;
  /** Cached prompt tokens, summed over the calls whose server said; null when none did. */
  cachedPromptTokens: number | null;
  /** Of the prompt tokens of the calls whose server said, the share served from the cache. */
  cacheShare: number | null;
  outputTokens: number;
}

function row(model: string, records: readonly CallRecord[]): TokenUsageRow {
  const reported = records.filter((record) => record.cachedPromptTokens !== undefined);
  const cached = reported.reduce((sum, record) => sum + (record.cachedPromptTokens ?? 0), 0);
  const basis = reported.reduce((sum, record) => sum + record.promptTokens, 0);
  return {
    model,
    calls: records.reduce((sum, record) => sum + (record.attempts ?? 1), 0),
    promptTokens: records.reduce((sum, record) => sum + record.promptTokens, 0),
    cachedPromptTokens: reported.length === 0 ? null : cached,
    cacheShare: reported.length === 0 || basis === 0 ? null : cached / basis,
    outputTokens: records.reduce((sum, record) => sum + record.outputTokens, 0),
  };
}

/** One row per model, in the order they first appear, and one for the whole run. */
export function tokenUsage(records: readonly CallRecord[]): { models: TokenUsageRow[]; run: TokenUsageRow } {
  const called = records.filter((record) => (record.attempts ?? 1) > 0 && record.model);
  const models = [...new Set(called.map((record) => record.model as string))];
  return {
    models: models.map((model) =>
      row(
        model,
        called.filter((record) => record.model === model),
      ),
    ),
    run: row('whole run', called),
  };
}

const share = (value: number | null) => (value === null ? '—' : `${Math.round(value * 100)}%`);

/** The per-model table with the run's totals, and what the cache share means. */
export function tokenUsageTable(records: readonly CallRecord[], layout?: TextLayout): string {
  const usage = tokenUsage(records);
  if (usage.models.length === 0) return '';
  const table = renderTextTable(
    ['Model', 'Calls', 'Prompt tokens', 'Cached', 'Cache share', 'Output tokens'],
    [...usage.models, usage.run].map((item) => [
      item.model,
      item.calls,
      item.promptTokens,
      item.cachedPromptTokens ?? '—',
      share(item.cacheShare),
      item.outputTokens,
    ]),
    layout ?? WIDE_LAYOUT,
  );
  return `${table}\nCache share: of the prompt tokens of the calls whose server reports its prompt cache, the share it served from that cache (every attempt counted); — where the server reports none (Ollama). Calls: every model call, retries included.`;
}
