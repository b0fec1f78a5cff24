/**
 * The people's ranking of models: a Bradley-Terry fit, as for the judges' ranking, over the blind
 * arena's votes alone. Each vote is a match between the models of the two sides (a knockout's
 * Position X model against each model that spoke for Position Y), won by the side voted for, a tie
 * for a tie; a side whose model is the other side's too says nothing about the model and is left out.
 */
import type { RunIndex } from '../store/run-index.js';
import { type ArenaRecord, arenaRecords } from './arena-records.js';
import { bradleyTerry, type Match } from './bradley-terry.js';
import type { LeaderTable } from './leader-table.js';

type Cell = string | number | null;

/** The matches one debate's votes make, each with the vote it came from. */
export function arenaMatches(record: ArenaRecord): Array<Match & { vote: string }> {
  const [first, second] = record.sides;
  if (!first || !second) return [];
  const models = (side: typeof first) =>
    [...new Set(side.speakers.map((speaker) => speaker.model))].filter(Boolean);
  const matches: Array<Match & { vote: string }> = [];
  for (const vote of record.votes) {
    const winner = vote.choice === first.key ? 'a' : vote.choice === second.key ? 'b' : 'tie';
    for (const a of models(first)) {
      for (const b of models(second)) {
        if (a !== b)
          matches.push({ a, b, winner, cluster: record.runId, vote: `${record.runId}\u0000${vote.voter}` });
      }
    }
  }
  return matches;
}

export function humanRankingTable(index: RunIndex, runsIn: string, params: Cell[]): LeaderTable {
  const records = arenaRecords(index, runsIn, params);
  const matches = records.flatMap(arenaMatches);
  const votesBehind = new Map<string, Set<string>>();
  for (const match of matches) {
    for (const model of [match.a, match.b]) {
      votesBehind.set(model, (votesBehind.get(model) ?? new Set()).add(match.vote));
    }
  }
  const votes = records.reduce((sum, record) => sum + record.votes.length, 0);
  const notBlind = records.reduce((sum, record) => sum + record.notBlind, 0);
  const voted = records.filter((record) => record.votes.length > 0).length;
  return {
    title: 'Ranking of models by people (blind arena, Bradley-Terry)',
    columns: ['Model', 'Rating', '95% interval', 'Wins', 'Losses', 'Ties', 'Votes'],
    rows: bradleyTerry(matches).map((player) => [
      player.player,
      Math.round(player.rating),
      `${Math.round(player.low)}–${Math.round(player.high)}`,
      player.wins,
      player.losses,
      player.ties,
      votesBehind.get(player.player)?.size ?? 0,
    ]),
    note: `From ${votes} blind vote${votes === 1 ? '' : 's'} on ${voted} debate${voted === 1 ? '' : 's'} in the blind arena, one per debate per browser, apart from the judges' ranking${notBlind > 0 ? `; ${notBlind} vote${notBlind === 1 ? '' : 's'} from browsers that had seen the debate's names first are kept apart and not counted` : ''}. Fitted as the judges' ranking is (MM with a weak prior); the interval from 200 bootstrap resamples of the debates, each drawn debate with all its votes. A vote is a match between the two sides' models, won by the side voted for; in a knockout, Position X's model against each model that spoke for Position Y. Votes: the votes behind a model's rating.`,
  };
}
