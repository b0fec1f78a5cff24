/**
 * The people's ranking of models beside the judges' ranking of the same models, on the same
 * debates (the ones people voted on blind in the arena), with Kendall's tau-b between the two and
 * its bootstrap interval over debates. Both rankings are Bradley-Terry fits of whole-debate
 * verdicts: a person's vote, or a judge model's verdict (the majority of its judges in the debate),
 * each a match between the two sides' models. The bootstrap draws debates, and each drawn debate
 * brings its votes and its verdicts to both fits.
 */
import type { RunIndex } from '../store/run-index.js';
import { type ArenaRecord, arenaRecords } from './arena-records.js';
import { bradleyTerry, type Match } from './bradley-terry.js';
import { bootstrapOverDebates } from './debate-bootstrap.js';
import { type DebateSide, modelVerdicts } from './debate-sides.js';
import { arenaMatches } from './human-ranking.js';
import type { LeaderTable } from './leader-table.js';
import { kendallTauB } from './rank-correlation.js';

type Cell = string | number | null;

/** Resamples for the interval of tau (each refits both rankings). */
export const TAU_RESAMPLES = 200;

const round2 = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

const modelsOf = (side: DebateSide) =>
  [...new Set(side.speakers.map((speaker) => speaker.model))].filter(Boolean);

/** The matches the judge models' verdicts on a debate make: one per judge model, as a vote does. */
export function judgeMatches(record: ArenaRecord): Match[] {
  const [first, second] = record.sides;
  if (!first || !second) return [];
  return modelVerdicts(record.verdicts).flatMap((verdict) => {
    const winner = verdict.verdict === first.key ? 'a' : verdict.verdict === second.key ? 'b' : 'tie';
    return modelsOf(first).flatMap((a) =>
      modelsOf(second).flatMap((b): Match[] => (a === b ? [] : [{ a, b, winner, cluster: record.runId }])),
    );
  });
}

/** Ratings (no interval) of the people's and the judges' fits, for the models both ranked. */
export function bothRankings(records: readonly ArenaRecord[]) {
  const ratingsOf = (matches: Match[]) =>
    new Map(bradleyTerry(matches, { bootstrap: 0 }).map((player) => [player.player, player.rating]));
  const people = ratingsOf(records.flatMap(arenaMatches));
  const judges = ratingsOf(records.flatMap(judgeMatches));
  const models = [...people.keys()].filter((model) => judges.has(model)).sort();
  return {
    models,
    people: models.map((model) => people.get(model) ?? 0),
    judges: models.map((model) => judges.get(model) ?? 0),
  };
}

/** Tau-b between the two rankings over the models both ranked; null below two such models. */
export function rankingsTau(records: readonly ArenaRecord[]): number | null {
  const both = bothRankings(records);
  return both.models.length < 2 ? null : kendallTauB(both.people, both.judges);
}

/** Rank 1 for the highest rating; equal ratings share the better rank. */
function ranks(values: readonly number[]): number[] {
  return values.map((value) => 1 + values.filter((other) => other > value + 1e-9).length);
}

export function rankingsComparedTable(index: RunIndex, runsIn: string, params: Cell[]): LeaderTable {
  const records = arenaRecords(index, runsIn, params).filter(
    (record) => record.votes.length > 0 && record.verdicts.length > 0,
  );
  const both = bothRankings(records);
  const tau = both.models.length < 2 ? null : kendallTauB(both.people, both.judges);
  const interval =
    tau === null ? null : bootstrapOverDebates(records, rankingsTau, { resamples: TAU_RESAMPLES });
  const peopleRanks = ranks(both.people);
  const judgeRanks = ranks(both.judges);
  const tauText =
    tau === null
      ? 'n/a'
      : `${round2(tau)}${interval ? ` (95% interval ${round2(interval.low)}–${round2(interval.high)})` : ' (no interval: too few debates where it is defined)'}`;
  return {
    title: `Rankings by people and by judges compared: Kendall tau-b ${tauText}`,
    columns: ['Model', "People's rating", "People's rank", "Judges' rating", "Judges' rank"],
    rows: both.models.map((model, at) => [
      model,
      Math.round(both.people[at] ?? 0),
      peopleRanks[at] ?? null,
      Math.round(both.judges[at] ?? 0),
      judgeRanks[at] ?? null,
    ]),
    note: `On the ${records.length} debate${records.length === 1 ? '' : 's'} with both people's blind votes and judges' verdicts, the models both ranked (${both.models.length}). Both ratings are Bradley-Terry fits of whole-debate verdicts between the sides' models: the people's from each blind vote, the judges' from each judge model's verdict on the debate (the majority of its judges in it). Kendall's tau-b: 1 when the two rankings order every pair of models alike, -1 when they reverse it, 0 when they agree no more than chance would; its interval is the 2.5th to 97.5th percentile over ${TAU_RESAMPLES} bootstrap resamples of the debates (each drawn debate brings its votes and verdicts to both fits). With few models or debates the interval is wide: that is what it is for.`,
  };
}
