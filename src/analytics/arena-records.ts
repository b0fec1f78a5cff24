/**
 * The blind arena's votes across debates, for the leaderboard: each voted-on debate with its sides
 * (who spoke, on which model), the people's blind votes and the judges' verdicts on the whole
 * debate. A vote from a browser that had seen the debate's names before casting it is not blind: it
 * is counted apart (`notBlind`) and left out of everything else.
 */

import { type ArenaVote, arenaVotesByBlindness } from '../store/arena-votes.js';
import type { RunIndex } from '../store/run-index.js';
import { type DebateSide, debateSides, type JudgeVerdict, judgeVerdicts, majority } from './debate-sides.js';
import { fromRunLog, loggedRuns } from './run-logs.js';

type Cell = string | number | null;

export interface ArenaRecord {
  runId: string;
  format: string;
  sides: DebateSide[];
  /** The blind votes: the only ones the rankings and the calibration count. */
  votes: ArenaVote[];
  /** Votes from browsers that had seen the debate's names first, kept apart. */
  notBlind: number;
  verdicts: JudgeVerdict[];
}

/** The debates people voted on in the arena, among the runs the leaderboard counts. */
export function arenaRecords(index: RunIndex, runsIn: string, params: Cell[]): ArenaRecord[] {
  const records: ArenaRecord[] = [];
  for (const run of loggedRuns(index, runsIn, params)) {
    const { blind, notBlind } = arenaVotesByBlindness(run.runDir);
    if (blind.length === 0 && notBlind.length === 0) continue;
    const read = fromRunLog('arena', run.runDir, (events) => ({
      sides: debateSides(events),
      verdicts: judgeVerdicts(events),
    }));
    const sides = read === null ? null : read.sides;
    if (read === null || sides === null || sides.length !== 2) continue;
    records.push({
      runId: run.runId,
      format: run.format,
      sides,
      votes: blind,
      notBlind: notBlind.length,
      verdicts: read.verdicts,
    });
  }
  return records;
}

/** The people's verdict on a debate: the answer most of them gave; a tie when two lead equally. */
export function peoplesVerdict(votes: readonly ArenaVote[]): string | null {
  return majority(votes.map((vote) => vote.choice));
}
