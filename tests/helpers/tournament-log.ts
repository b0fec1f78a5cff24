/** A tournament folder's log as its tests read it, while the tournament may still be writing it. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TournamentEntry } from '../../src/tournament/tournament-log.js';

/** The entries of `folder`'s tournament.jsonl; none before the file exists. */
export function tournamentEntries(folder: string): TournamentEntry[] {
  const file = path.join(folder, 'tournament.jsonl');
  if (!existsSync(file)) return [];
  // A line being written when read is left for the next look.
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(0, -1)
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as TournamentEntry);
}

/** Polls the tournament's log until `ready` holds of it; the moment to act is read from the log. */
export async function whenTournamentLog(
  folder: string,
  ready: (log: TournamentEntry[]) => boolean,
): Promise<TournamentEntry[]> {
  for (;;) {
    const log = tournamentEntries(folder);
    if (ready(log)) return log;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
