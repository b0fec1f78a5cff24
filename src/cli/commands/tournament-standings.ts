/** The standings a tournament prints at its end, and `leaderboard --tournament DIR` prints too. */
import type { TournamentMatch } from '../../analytics/tournament-match.js';
import type { TournamentState } from '../../tournament/tournament-log.js';
import type { CliIo } from '../io.js';
import { renderTable } from '../table-output.js';
import { terminalLayout } from '../terminal-layout.js';

/** The finished debates that count, as the standings read them. */
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
  const models = state.start.spec.models;
  const rows = models.map((model) => {
    const played = matches.filter((match) => match.first === model || match.second === model);
    const scored = played.filter((match) => match.score !== null);
    const points = (match: TournamentMatch) =>
      match.first === model ? (match.score as number) : 1 - (match.score as number);
    return {
      model,
      debates: played.length,
      wins: scored.filter((match) => points(match) === 1).length,
      losses: scored.filter((match) => points(match) === 0).length,
      ties: scored.filter((match) => points(match) === 0.5).length,
    };
  });
  if (values.json) {
    io.stdout.write(
      `${JSON.stringify({ tournament: state.start.id, folder, debates: matches.length, standings: rows }, null, 2)}\n`,
    );
    return;
  }
  io.stdout.write(
    renderTable(
      ['Model', 'Debates', 'Wins', 'Losses', 'Ties'],
      rows.map((row) => [row.model, row.debates, row.wins, row.losses, row.ties]),
      values.csv ? 'csv' : 'table',
      terminalLayout(io.stdout, io.env),
    ),
  );
}
