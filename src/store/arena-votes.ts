/**
 * The arena's votes: people who read a finished debate with the names hidden say which side had the
 * better of it. One vote per debate per voter (an anonymous id the viewer keeps in the voter's
 * browser), in `arena-votes.jsonl` beside the run's log and never in it, so a vote cannot change what
 * the judges decided. Each line is flushed before the vote is confirmed.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { LineTail } from './live-log.js';

export const ARENA_FILE = 'arena-votes.jsonl';

export interface ArenaVote {
  type: 'arena-vote';
  seq: number;
  at: string;
  /** A side's key (X or Y, affirmative or negative, a or b), or `tie`. */
  choice: string;
  /** The anonymous id of the voter's browser. */
  voter: string;
}

export function readArenaVotes(runDir: string): ArenaVote[] {
  const votes: ArenaVote[] = [];
  for (const line of new LineTail(path.join(runDir, ARENA_FILE)).read()) {
    try {
      const vote = JSON.parse(line) as ArenaVote;
      if (vote.type === 'arena-vote' && typeof vote.choice === 'string' && typeof vote.voter === 'string') {
        votes.push(vote);
      }
    } catch {
      // A line cut off by a crash is skipped; the votes around it still count.
    }
  }
  // Should two viewers have taken the same voter's vote at once, the first one counts.
  const seen = new Set<string>();
  return votes.filter((vote) => !seen.has(vote.voter) && seen.add(vote.voter));
}

/** The vote this voter has cast on the run, if any. */
export function voteOf(runDir: string, voter: string): ArenaVote | undefined {
  return readArenaVotes(runDir).find((vote) => vote.voter === voter);
}

/**
 * Records a voter's vote, unless that voter has voted on this run already: then the earlier vote
 * is returned and nothing is written.
 */
export function castArenaVote(
  runDir: string,
  vote: { choice: string; voter: string },
  at: Date = new Date(),
): { vote: ArenaVote; recorded: boolean } {
  const votes = readArenaVotes(runDir);
  const earlier = votes.find((candidate) => candidate.voter === vote.voter);
  if (earlier) return { vote: earlier, recorded: false };
  const stored: ArenaVote = {
    type: 'arena-vote',
    seq: votes.length + 1,
    at: at.toISOString(),
    choice: vote.choice,
    voter: vote.voter,
  };
  const descriptor = openSync(path.join(runDir, ARENA_FILE), 'a');
  try {
    writeSync(descriptor, `${JSON.stringify(stored)}\n`);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  return { vote: stored, recorded: true };
}

/** Votes per choice. */
export function tallyArenaVotes(votes: readonly ArenaVote[]): Map<string, number> {
  const tally = new Map<string, number>();
  for (const vote of votes) tally.set(vote.choice, (tally.get(vote.choice) ?? 0) + 1);
  return tally;
}
