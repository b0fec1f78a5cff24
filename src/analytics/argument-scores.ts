/**
 * The argument scores per model across debates: each debater's claims, answers and dropped points
 * from its debate's argument map, added up under the model the scenario gave it.
 */
import type { RunIndex } from '../store/run-index.js';
import { argumentMap } from './argument-map.js';
import type { ArgumentScore, MapSource } from './argument-map-shape.js';
import { speakerModels } from './debate-sides.js';
import type { LeaderTable } from './leader-table.js';
import { fromRunLog, loggedRuns } from './run-logs.js';

type Cell = string | number | null;

interface RunScores {
  source: MapSource;
  scores: Array<ArgumentScore & { model: string }>;
}

function runScores(runDir: string): RunScores | null {
  return fromRunLog('argument-scores', runDir, (events) => {
    const start = events[0];
    const map = argumentMap(events);
    if (!map || start?.type !== 'run-start') return null;
    const models = speakerModels(start.scenario);
    return {
      source: map.source,
      scores: map.scores.map((score) => ({ ...score, model: models.get(score.speaker) ?? '' })),
    };
  });
}

const share = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 100) / 100);

export function argumentScoresTable(index: RunIndex, runsIn: string, params: Cell[]): LeaderTable {
  type Tally = {
    debates: Set<string>;
    made: number;
    answered: number;
    given: number;
    open: number;
    dropped: number;
  };
  const tallies = new Map<string, Tally>();
  const sources = { ledger: 0, 'key-sentences': 0 };
  for (const run of loggedRuns(index, runsIn, params)) {
    const found = runScores(run.runDir);
    if (!found) continue;
    sources[found.source] += 1;
    for (const score of found.scores) {
      if (!score.model) continue;
      const tally = tallies.get(score.model) ?? {
        debates: new Set<string>(),
        made: 0,
        answered: 0,
        given: 0,
        open: 0,
        dropped: 0,
      };
      tally.debates.add(run.runId);
      tally.made += score.made;
      tally.answered += score.answeredByOther;
      tally.given += score.answersGiven;
      tally.open += score.leftOpen;
      tally.dropped += score.dropped;
      tallies.set(score.model, tally);
    }
  }
  return {
    title: 'Argument scores (from the argument maps)',
    columns: [
      'Model',
      'Debates',
      'Claims',
      'Answered by the other side',
      'Answers given',
      'Left open',
      'Dropped',
      'Dropped of answered',
    ],
    rows: [...tallies]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([model, tally]) => [
        model,
        tally.debates.size,
        tally.made,
        tally.answered,
        tally.given,
        tally.open,
        tally.dropped,
        share(tally.dropped, tally.answered),
      ]),
    note: `Knockout, formal and duel debates: ${sources.ledger} mapped from their claims ledger, ${sources['key-sentences']} from key sentences linked by wording. Per model, over the debaters it spoke for: new claims made, those the other side answered, the other side's claims answered, claims never answered (left open), and claims answered and then let go by their side (dropped).`,
  };
}
