/** The standings a tournament prints at its end, and `leaderboard --tournament DIR` prints too. */
import type { TournamentMatch } from '../../analytics/tournament-match.js';
import { computeStandings } from '../../analytics/tournament-standings.js';
import { safeJson } from '../../render/terminal-safe.js';
import { standingsCsv, tournamentTable } from '../../render/tournament-table.js';
import type { TournamentState } from '../../tournament/tournament-log.js';
import type { CliIo } from '../io.js';
import { renderTable } from '../table-output.js';
import { terminalLayout } from '../terminal-layout.js';

/** The finished debates the standings read: every debate that ended, failed ones apart. */
export function finishedMatches(state: TournamentState): TournamentMatch[] {
  return [...state.ended.values()].flatMap((end) =>
    end.status !== 'failed' && end.match ? [end.match] : [],
  );
}

export function printStandings(
  state: TournamentState,
  folder: string,
  values: { json?: boolean; csv?: boolean },
  io: CliIo,
): void {
  const matches = finishedMatches(state);
  // Seeded by the tournament: the same debates give the same intervals every time they are printed.
  const standings = computeStandings(matches, { seed: state.start.spec.seed });
  if (values.json) {
    io.stdout.write(
      `${safeJson({ tournament: state.start.id, folder, planned: state.planned.length, standings }, 2)}\n`,
    );
    return;
  }
  if (values.csv) {
    const { columns, rows } = standingsCsv(standings);
    io.stdout.write(renderTable(columns, rows, 'csv', terminalLayout(io.stdout, io.env)));
    return;
  }
  io.stdout.write(
    `\nTournament ${state.start.id}: ${matches.length} of ${state.planned.length} planned debates finished\n${tournamentTable(standings, terminalLayout(io.stdout, io.env))}\n`,
  );
}
