/** The token table lists models; a summary part written from the claims ledger is a line under it, not a row. */
import { describe, expect, it } from 'vitest';
import type { FormatDefinition } from '../../src/formats/format-definition.js';
import { LEDGER_SUMMARY_MODEL } from '../../src/formats/knockout/summary-prompts.js';
import { withTokenUsage } from '../../src/formats/token-usage-report.js';

const format = { report: () => 'The debate ended.' } as unknown as FormatDefinition<
  unknown,
  { kind: string }
>;

const state = {
  rounds: [
    {
      statements: [{ model: 'llama3', promptTokens: 900, outputTokens: 300 }],
      votes: [{ model: 'mistral', promptTokens: 1200, outputTokens: 80 }],
    },
  ],
  summaries: [
    { model: LEDGER_SUMMARY_MODEL, promptTokens: 0, outputTokens: 0 },
    { model: LEDGER_SUMMARY_MODEL, promptTokens: 0, outputTokens: 0 },
  ],
  claims: [],
  commentary: [],
};

describe('the token table of a knockout whose summary comes from the claims ledger', () => {
  it('has a row per model and the whole run, and says under it what the ledger wrote', () => {
    const report = withTokenUsage(format).report(state, { width: 100, borders: false });
    const rows = report.split('\n').map((line) => line.split(/\s{2,}/)[0]);
    expect(rows).toEqual(expect.arrayContaining(['llama3', 'mistral', 'whole run']));
    expect(rows).not.toContain('claims ledger');
    expect(report).toMatch(/whole run\s+2\s+2100\s/);
    expect(report).toContain(
      'Written from the claims ledger, with no model call: 2 parts of the running summary.',
    );
  });
});
