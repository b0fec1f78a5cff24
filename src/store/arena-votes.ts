/**
 * The arena's votes: people who read a finished debate with the names hidden say which side had the
 * better of it. One vote per debate per voter (an anonymous id the viewer keeps in the voter's
 * browser), in `arena-votes.jsonl` beside the run's log and never in it, so a vote cannot change what
 * the judges decided. Each line is flushed before the vote is confirmed. Beside them, in
 * `arena-seen.jsonl`, the browsers that saw the debate's names before voting: their votes are not
 * blind, and the rankings leave them out.
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
  appendLine(runDir, ARENA_FILE, stored);
  return { vote: stored, recorded: true };
}

/** Votes per choice. */
export function tallyArenaVotes(votes: readonly ArenaVote[]): Map<string, number> {
  const tally = new Map<string, number>();
  for (const vote of votes) tally.set(vote.choice, (tally.get(vote.choice) ?? 0) + 1);
  return tally;
}

/** Names seen: a browser that opened a debate's page with the names, its export or its data. */
export const ARENA_SEEN_FILE = 'arena-seen.jsonl';

export interface NamesSeen {
  type: 'names-seen';
  at: string;
  voter: string;
  /** What showed the names: the run page, its export, or its data through the API. */
  via: string;
}

/** When each browser first saw the debate's names, by its voter id. */
export function readNamesSeen(runDir: string): Map<string, NamesSeen> {
  const seen = new Map<string, NamesSeen>();
  for (const line of new LineTail(path.join(runDir, ARENA_SEEN_FILE)).read()) {
    try {
      const mark = JSON.parse(line) as NamesSeen;
      if (mark.type === 'names-seen' && typeof mark.voter === 'string' && typeof mark.at === 'string') {
        if (!seen.has(mark.voter)) seen.set(mark.voter, mark);
      }
    } catch {
      // A line cut off by a crash is skipped.
    }
  }
  return seen;
}

/**
 * Notes that this browser has seen the debate's names, once, and only while it has not voted on it
 * (a vote cast before is blind whatever the browser reads afterwards). Returns whether a line was written.
 */
export function noteNamesSeen(runDir: string, voter: string, via: string, at: Date = new Date()): boolean {
  if (readNamesSeen(runDir).has(voter)) return false;
  if (readArenaVotes(runDir).some((vote) => vote.voter === voter)) return false;
  appendLine(runDir, ARENA_SEEN_FILE, { type: 'names-seen', at: at.toISOString(), voter, via });
  return true;
}

/** A vote is blind unless its browser had seen the debate's names before casting it. */
export function isBlind(vote: ArenaVote, seen: ReadonlyMap<string, NamesSeen>): boolean {
  const mark = seen.get(vote.voter);
  return mark === undefined || mark.at > vote.at;
}

/** The run's votes, split into blind ones (the only ones the rankings count) and the rest, kept apart. */
export function arenaVotesByBlindness(runDir: string): { blind: ArenaVote[]; notBlind: ArenaVote[] } {
  const seen = readNamesSeen(runDir);
  const votes = readArenaVotes(runDir);
  return {
    blind: votes.filter((vote) => isBlind(vote, seen)),
    notBlind: votes.filter((vote) => !isBlind(vote, seen)),
  };
}

function appendLine(runDir: string, file: string, value: unknown): void {
  const descriptor = openSync(path.join(runDir, file), 'a');
  try {
    writeSync(descriptor, `${JSON.stringify(value)}\n`);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}
