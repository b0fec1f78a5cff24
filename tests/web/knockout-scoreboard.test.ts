import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/core/events.js';
import { scoreboardHtml } from '../../src/web/run-view.js';
import type { RunView } from '../../src/web/viewed-run.js';

const at = '2026-11-25T12:00:00.000Z';

function roundEnd(round: number, rotate: number, keep: number, abstained: number): RunEvent {
  return {
    type: 'round-end',
    seq: round,
    at,
    round,
    debater: 'Yara',
    tally: {
      rotateVotes: rotate,
      continueVotes: keep,
      abstentions: abstained,
      meanScore: 3,
      decision: rotate > keep ? 'rotate' : 'continue',
      decidedBy: 'votes',
    },
    outcome: rotate > keep ? 'rotation' : 'continue',
    ...(rotate > keep ? { rotation: { from: 'Yara', to: 'Yusuf' } } : {}),
    transition: { summary: '', focus: '' },
    realMs: 1,
  } as RunEvent;
}

describe("a knockout's scoreboard", () => {
  it("says the judges' votes in words, with no legend to decode", () => {
    const view: RunView = {
      runId: 'r',
      events: [roundEnd(1, 1, 2, 0), roundEnd(2, 2, 0, 1)],
      scenario: undefined,
      format: undefined,
      progress: null,
      spectators: [],
      live: false,
    };
    const table = scoreboardHtml(view).value;
    expect(table).toContain("<th>Judges' votes</th>");
    expect(table).toContain('<td>1 replace, 2 keep</td>');
    expect(table).toContain('<td>2 replace, 0 keep, 1 abstained</td>');
    expect(table).not.toContain('R·C·A');
  });
});
