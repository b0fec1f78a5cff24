import { describe, expect, it } from 'vitest';
import type { RunListing } from '../../src/manager/run-listing.js';
import { runsRowsHtml } from '../../src/web/pages.js';

const listing = (stopReason: string): RunListing => ({
  runId: `20261125-1200-topic-${stopReason}`,
  runDir: `/runs/${stopReason}`,
  format: 'knockout',
  status: 'completed',
  topic: 'Should abortion be legal?',
  models: 'llama3,mistral',
  batch: '',
  progress: '6/6',
  stopReason,
  failedSteps: 0,
  startedAt: '2026-11-25T12:00:00.000Z',
  activeMs: 1000,
  outcome: 'Avery Morgan (Pro-Choice) knocked out 2 of 3 opponents.',
  simulated: false,
});

describe('the runs list says why a run ended in words', () => {
  it('shows no stop label a reader would have to decode', () => {
    const rows = String(
      runsRowsHtml(['max_rounds', 'finished', 'judge_early_stop', 'manual-stop'].map(listing)),
    );
    // The labels stay in the run ids and links; the status cells say what they mean.
    const statusCells = [...rows.matchAll(/<td data-label="Status">(.*?)<\/td>/g)].map((match) => match[1]);
    expect(statusCells).toHaveLength(4);
    for (const cell of statusCells)
      expect(cell).not.toMatch(/max_rounds|finished|judge_early_stop|manual-stop/);
    expect(statusCells[0]).toContain('it reached its last round');
    expect(statusCells[2]).toContain('the judges heard no new arguments two rounds running');
    expect(statusCells[3]).toContain('it was asked to stop');
  });
});
