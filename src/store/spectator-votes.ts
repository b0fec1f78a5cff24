/**
 * Spectator votes: people watching a run vote on its rounds. They are events of their own, in
 * `spectators.jsonl` beside the run's log and never in it, so they cannot change what the judges
 * decided, and a run replays the same with or without an audience. Each line is flushed.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { LineTail } from './live-log.js';

export const SPECTATOR_FILE = 'spectators.jsonl';

export interface SpectatorVote {
  type: 'spectator-vote';
  seq: number;
  at: string;
  round: number;
  /** `continue` or `rotate` in a knockout round; the favoured side's key in a formal debate or a duel. */
  choice: string;
  /** An anonymous id kept in the spectator's browser: a later vote on the same round replaces the earlier one. */
  voter: string;
}

export function readSpectatorVotes(runDir: string): SpectatorVote[] {
  return parseVotes(new LineTail(path.join(runDir, SPECTATOR_FILE)).read());
}

export function parseVotes(lines: string[]): SpectatorVote[] {
  const votes: SpectatorVote[] = [];
  for (const line of lines) {
    try {
      const vote = JSON.parse(line) as SpectatorVote;
      if (vote.type === 'spectator-vote') votes.push(vote);
    } catch {
      // A line cut off by a crash is skipped; the votes around it still count.
    }
  }
  return votes;
}

export function appendSpectatorVote(
  runDir: string,
  vote: Omit<SpectatorVote, 'type' | 'seq' | 'at'>,
  at: Date = new Date(),
): SpectatorVote {
  const file = path.join(runDir, SPECTATOR_FILE);
  const stored: SpectatorVote = {
    type: 'spectator-vote',
    seq: readSpectatorVotes(runDir).length + 1,
    at: at.toISOString(),
    ...vote,
  };
  const descriptor = openSync(file, 'a');
  try {
    writeSync(descriptor, `${JSON.stringify(stored)}\n`);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  return stored;
}

/** The counts per round and choice, each voter's last vote on a round counting once. */
export function tallySpectatorVotes(votes: SpectatorVote[]): Map<number, Map<string, number>> {
  const last = new Map<string, SpectatorVote>();
  for (const vote of votes) last.set(`${vote.round}\u0000${vote.voter}`, vote);
  const tally = new Map<number, Map<string, number>>();
  for (const vote of last.values()) {
    const round = tally.get(vote.round) ?? new Map<string, number>();
    round.set(vote.choice, (round.get(vote.choice) ?? 0) + 1);
    tally.set(vote.round, round);
  }
  return tally;
}
