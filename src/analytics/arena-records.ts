/**
 * The blind arena's votes across debates, for the leaderboard: each voted-on debate with its sides
 * (who spoke, on which model), the people's votes and the judges' verdicts on the whole debate.
 */

import { type ArenaVote, readArenaVotes } from '../store/arena-votes.js';
import type { RunIndex } from '../store/run-index.js';
import { type DebateSide, debateSides, type JudgeVerdict, judgeVerdicts, TIE } from './debate-sides.js';
import { fromRunLog, loggedRuns } from './run-logs.js';

type Cell = string | number | null;

export interface ArenaRecord {
  runId: string;
  sides: DebateSide[];
  votes: ArenaVote[];
  verdicts: JudgeVerdict[];
}

/** The debates people voted on in the arena, among the runs the leaderboard counts. */
export function arenaRecords(index: RunIndex, runsIn: string, params: Cell[]): ArenaRecord[] {
  const records: ArenaRecord[] = [];
  for (const run of loggedRuns(index, runsIn, params)) {
    const votes = readArenaVotes(run.runDir);
    if (votes.length === 0) continue;
    const read = fromRunLog('arena', run.runDir, (events) => ({
      sides: debateSides(events),
      verdicts: judgeVerdicts(events),
    }));
    const sides = read === null ? null : read.sides;
    if (read === null || sides === null || sides.length !== 2) continue;
    records.push({ runId: run.runId, sides, votes, verdicts: read.verdicts });
  }
  return records;
}

/** The people's verdict on a debate: the answer most of them gave; a tie when two lead equally. */
export function peoplesVerdict(votes: readonly ArenaVote[]): string | null {
  const counts = new Map<string, number>();
  for (const vote of votes) counts.set(vote.choice, (counts.get(vote.choice) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const [top, next] = ranked;
  if (!top) return null;
  return next && next[1] === top[1] ? TIE : top[0];
}
