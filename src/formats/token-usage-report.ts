/**
 * Adds the run's token table (per model and for the whole run, with the cache share) to every
 * format's end-of-run report, from the model calls each format's state keeps.
 */
import { plural } from '../core/plural.js';
import type { FormatDefinition } from './format-definition.js';
import type { KnockoutState } from './knockout/state.js';
import { LEDGER_SUMMARY_MODEL } from './knockout/summary-prompts.js';
import type { CallRecord } from './shared/token-usage.js';
import { tokenUsageTable } from './shared/token-usage.js';

/** The recorded model calls of a knockout, or of a format made of statements and assessments. */
export function recordedCalls(state: unknown): CallRecord[] {
  const knockout = state as Partial<KnockoutState>;
  if (Array.isArray(knockout.rounds)) {
    return [
      ...knockout.rounds.flatMap((round) => [...round.statements, ...round.votes]),
      // A summary written from the claims ledger made no model call.
      ...(knockout.summaries ?? []).filter((summary) => summary.model !== LEDGER_SUMMARY_MODEL),
      ...(knockout.claims ?? []),
      ...(knockout.commentary ?? []),
    ];
  }
  const sequence = state as { statements?: CallRecord[]; assessments?: CallRecord[] };
  return [...(sequence.statements ?? []), ...(sequence.assessments ?? [])];
}

export function withTokenUsage<State, Step extends { kind: string }>(
  format: FormatDefinition<State, Step>,
): FormatDefinition<State, Step> {
  return {
    ...format,
    report: (state, layout) => {
      // A summary part written from the claims ledger is no model call (recordedCalls leaves it
      // out): it gets a line under the table, not a row.
      const summaries = (state as Partial<KnockoutState>).summaries ?? [];
      const ledger = summaries.filter((summary) => summary.model === LEDGER_SUMMARY_MODEL).length;
      const table = tokenUsageTable(recordedCalls(state), layout);
      const note =
        ledger === 0
          ? ''
          : `\nWritten from the claims ledger, with no model call: ${plural(ledger, 'part')} of the running summary.`;
      const report = format.report(state, layout);
      return table === '' ? report : `${report}\n\n${table}${note}`;
    },
  };
}
