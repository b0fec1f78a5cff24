/**
 * Leaderboards from the run index: per model and per agent (debates, rounds debated, mean weighted
 * score with a 95% interval, rotations caused or survived, knock-out rate), a Bradley-Terry
 * ranking of models across debates, how far the judges agree, the argument scores per model, and
 * from the blind arena the people's own ranking and how often each judge model agrees with people.
 */
import { voteContradictsScores } from '../judging/criteria.js';
import type { RunIndex } from '../store/run-index.js';
import { fleissKappa, krippendorffAlpha, pairwiseAgreement } from './agreement.js';
import { reliabilityTable } from './answer-reliability.js';
import { argumentScoresTable } from './argument-scores.js';
import { bradleyTerry, type Match } from './bradley-terry.js';
import { humanRankingTable } from './human-ranking.js';
import { meanInterval, proportionInterval } from './intervals.js';
import { judgeCalibrationTable } from './judge-calibration.js';
import type { LeaderTable } from './leader-table.js';
import { rankingsComparedTable } from './rankings-compared.js';

type Cell = string | number | null;

const round2 = (value: number | null | undefined) =>
  value === null || value === undefined ? null : Math.round(value * 100) / 100;

// The judges' weighted scores lie on this scale; an interval past its ends says nothing more.
const SCORE_LOWEST = 1;
const SCORE_HIGHEST = 5;
/** What the mean score says where the judges scored nothing: Position X's statements are never scored. */
export const NOT_SCORED = 'not scored';
/** The column of a "low–high" interval; CSV gives its two ends in two columns (`csvTable`). */
const INTERVAL_COLUMN = '95% interval';

function rows<T extends Record<string, Cell>>(index: RunIndex, sql: string, params: Cell[]): T[] {
  const result = index.query(sql, params);
  return result.rows.map(
    (row) => Object.fromEntries(result.columns.map((column, at) => [column, row[at] ?? null])) as T,
  );
}

/** Which runs count: one batch's, and simulated (demo) runs only when asked for. */
export interface LeaderboardOptions {
  batchId?: string;
  /** Count runs spoken by the built-in simulator too; they measure the simulator, not the models. */
  includeDemo?: boolean;
}

export function leaderboard(index: RunIndex, options: LeaderboardOptions = {}): LeaderTable[] {
  const conditions = [
    ...(options.batchId ? ['r.batch_id = ?'] : []),
    ...(options.includeDemo ? [] : ['COALESCE(r.simulated, 0) = 0']),
  ];
  const filter = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const params: Cell[] = options.batchId ? [options.batchId] : [];
  const runsIn = `(SELECT run_id FROM runs r ${filter})`;

  // Knockout participants: who debated which rounds, with what score and outcome.
  const stints = rows<{
    run_id: string;
    round: number;
    debater: string;
    debater_model: string;
    x_model: string;
    decision: string;
    outcome: string;
    mean_score: number | null;
  }>(
    index,
    `SELECT run_id, round, debater, debater_model, x_model, decision, outcome, mean_score FROM rounds WHERE run_id IN ${runsIn} ORDER BY run_id, round`,
    params,
  );
  const scores = rows<{ subject: string; subject_model: string; weighted_total: number; run_id: string }>(
    index,
    `SELECT subject, subject_model, weighted_total, run_id FROM evaluations WHERE abstained = 0 AND run_id IN ${runsIn}`,
    params,
  );
  const xTurns = rows<{ run_id: string; agent: string; model: string }>(
    index,
    `SELECT DISTINCT run_id, agent, model FROM turns WHERE position = 'X' AND run_id IN ${runsIn}`,
    params,
  );

  const participantTable = (
    title: string,
    keyOf: (name: string, model: string) => string,
    label: string,
  ): LeaderTable => {
    type Tally = {
      debates: Set<string>;
      rounds: number;
      scores: number[];
      caused: number;
      survived: number;
      knockedOut: number;
      stints: number;
    };
    const tallies = new Map<string, Tally>();
    const get = (key: string) => {
      let tally = tallies.get(key);
      if (!tally) {
        tally = {
          debates: new Set(),
          rounds: 0,
          scores: [],
          caused: 0,
          survived: 0,
          knockedOut: 0,
          stints: 0,
        };
        tallies.set(key, tally);
      }
      return tally;
    };
    const xOf = new Map(xTurns.map((turn) => [turn.run_id, turn]));
    for (const stint of stints) {
      const y = get(keyOf(stint.debater, stint.debater_model));
      y.debates.add(stint.run_id);
      y.rounds += 1;
      const rotated = stint.outcome === 'rotation' || stint.outcome === 'debate-over';
      if (rotated) y.knockedOut += 1;
      else y.survived += 1;
      const x = xOf.get(stint.run_id);
      if (x) {
        const tally = get(keyOf(x.agent, x.model));
        tally.debates.add(stint.run_id);
        tally.rounds += 1;
        if (rotated) tally.caused += 1;
      }
    }
    // A stint is one Y agent's time at the podium in one debate.
    const seen = new Set<string>();
    for (const stint of stints) {
      const id = `${stint.run_id}\u0000${stint.debater}`;
      if (seen.has(id)) continue;
      seen.add(id);
      get(keyOf(stint.debater, stint.debater_model)).stints += 1;
    }
    for (const score of scores)
      get(keyOf(score.subject, score.subject_model)).scores.push(score.weighted_total);
    const table: Cell[][] = [...tallies.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, tally]) => {
        const mean = meanInterval(tally.scores);
        const knockout = proportionInterval(tally.knockedOut, tally.stints);
        return [
          key,
          tally.debates.size,
          tally.rounds,
          mean ? round2(mean.mean) : NOT_SCORED,
          mean
            ? `${round2(Math.max(SCORE_LOWEST, mean.low))}–${round2(Math.min(SCORE_HIGHEST, mean.high))}`
            : null,
          tally.caused,
          tally.survived,
          knockout ? round2(knockout.rate) : null,
        ];
      });
    return {
      title,
      columns: [
        label,
        'Debates',
        'Rounds',
        'Mean score',
        INTERVAL_COLUMN,
        'Rotations caused (X)',
        'Rounds survived (Y)',
        'Knock-out rate',
      ],
      rows: table,
      note: `Knockout debates. Mean weighted score (1-5) given by the judges to the agent as debating Y; the interval is Student-t, kept within 1-5. The judges score only the Y debater's statements, never Position X's: "${NOT_SCORED}" for a model or agent that only ever debated as X.`,
    };
  };

  // Ranking: each knockout round is a match between X's model and the debating Y's model (Y wins
  // by being kept); each duel round, and each formal verdict, is a match between the two sides' models.
  const matches: Match[] = [];
  for (const stint of stints) {
    if (stint.x_model && stint.debater_model && stint.x_model !== stint.debater_model) {
      matches.push({
        a: stint.x_model,
        b: stint.debater_model,
        winner: stint.decision === 'rotate' ? 'a' : 'b',
        cluster: stint.run_id,
      });
    }
  }
  const verdicts = rows<{ run_id: string; winner: string; a_model: string; b_model: string }>(
    index,
    `SELECT run_id, winner, a_model, b_model FROM judgements WHERE abstained = 0 AND run_id IN ${runsIn}`,
    params,
  );
  for (const verdict of verdicts) {
    if (!verdict.a_model || !verdict.b_model || verdict.a_model === verdict.b_model) continue;
    const winner =
      verdict.winner === 'a' || verdict.winner === 'affirmative'
        ? 'a'
        : verdict.winner === 'b' || verdict.winner === 'negative'
          ? 'b'
          : 'tie';
    matches.push({ a: verdict.a_model, b: verdict.b_model, winner, cluster: verdict.run_id });
  }
  const ranking = bradleyTerry(matches);

  // Judge agreement, per round of knockout judging.
  const votes = rows<{
    run_id: string;
    round: number;
    judge_model: string;
    vote: string | null;
    weighted_total: number | null;
  }>(
    index,
    `SELECT run_id, round, judge_model, vote, weighted_total FROM evaluations WHERE run_id IN ${runsIn} ORDER BY run_id, round, seq`,
    params,
  );
  const byRound = new Map<string, typeof votes>();
  for (const vote of votes) {
    const key = `${vote.run_id}|${vote.round}`;
    byRound.set(key, [...(byRound.get(key) ?? []), vote]);
  }
  const units = [...byRound.values()];
  const complete = units.filter((unit) => unit.every((vote) => vote.vote !== null));
  const raterCount = complete[0]?.length ?? 0;
  const kappa = fleissKappa(
    complete
      .filter((unit) => unit.length === raterCount)
      .map((unit) => [
        unit.filter((vote) => vote.vote === 'continue').length,
        unit.filter((vote) => vote.vote === 'rotate').length,
      ]),
  );
  const alpha = krippendorffAlpha(
    units.map((unit) => unit.map((vote) => vote.weighted_total)),
    'interval',
  );
  const agreement = pairwiseAgreement(units.map((unit) => unit.map((vote) => vote.vote)));
  const perModel = new Map<string, { agree: number; total: number }>();
  // Votes that contradict the judge's own weighted total (continue under 3, rotate over 3).
  const against = new Map<string, { inconsistent: number; cast: number }>();
  for (const vote of votes) {
    if (vote.vote === null || vote.weighted_total === null) continue;
    const tally = against.get(vote.judge_model) ?? { inconsistent: 0, cast: 0 };
    tally.cast += 1;
    if (voteContradictsScores(vote.weighted_total, vote.vote === 'continue')) tally.inconsistent += 1;
    against.set(vote.judge_model, tally);
  }
  for (const unit of units) {
    const cast = unit.filter((vote) => vote.vote !== null);
    const rotate = cast.filter((vote) => vote.vote === 'rotate').length;
    const majority = rotate * 2 > cast.length ? 'rotate' : rotate * 2 < cast.length ? 'continue' : null;
    if (!majority) continue;
    for (const vote of cast) {
      const tally = perModel.get(vote.judge_model) ?? { agree: 0, total: 0 };
      tally.total += 1;
      if (vote.vote === majority) tally.agree += 1;
      perModel.set(vote.judge_model, tally);
    }
  }

  const firstPosition = firstPositionPreference(
    rows<{ judge_model: string; result: string | null }>(
      index,
      `SELECT judge_model, result FROM judgements WHERE abstained = 0 AND run_id IN ${runsIn} ORDER BY run_id, seq`,
      params,
    ),
  );

  return [
    participantTable('Models', (_name, model) => model, 'Model'),
    participantTable('Agents', (name, model) => `${name} (${model})`, 'Agent'),
    {
      title: 'Ranking of models (Bradley-Terry)',
      columns: ['Model', 'Rating', INTERVAL_COLUMN, 'Wins', 'Losses', 'Ties', 'Matches'],
      rows: ranking.map((player) => [
        player.player,
        Math.round(player.rating),
        `${Math.round(player.low)}–${Math.round(player.high)}`,
        player.wins,
        player.losses,
        player.ties,
        player.matches,
      ]),
      note: 'Bradley-Terry strengths on an Elo-like scale (mean 1500), fitted by MM with a weak prior; intervals from 200 bootstrap resamples of the debates (each drawn debate brings all its matches). A match: a knockout round (X model against the debating Y model, Y wins by being kept), a duel round, or a formal verdict.',
    },
    {
      title: 'Judge agreement',
      columns: [
        'Judge model',
        'Votes with a majority',
        'Agreed with it',
        'Agreement',
        'Votes against own scores',
        'First-position preference',
      ],
      rows: [...new Set([...perModel.keys(), ...against.keys(), ...firstPosition.keys()])]
        .sort((a, b) => a.localeCompare(b))
        .map((model) => {
          const tally = perModel.get(model) ?? { agree: 0, total: 0 };
          const own = against.get(model) ?? { inconsistent: 0, cast: 0 };
          return [
            model,
            tally.total,
            tally.agree,
            tally.total === 0 ? null : round2(tally.agree / tally.total),
            `${own.inconsistent} of ${own.cast}`,
            preferenceText(firstPosition.get(model)),
          ];
        }),
      note: `Across ${units.length} judged rounds: pairwise vote agreement ${round2(agreement) ?? 'n/a'}; Fleiss' kappa on continue/rotate votes ${round2(kappa) ?? 'n/a'} (${complete.length} rounds with every vote cast); Krippendorff's alpha (interval) on weighted totals ${round2(alpha) ?? 'n/a'}. First-position preference: of the duel judgements and formal verdicts asked with side swap, the share of answers that picked a side (not a tie) and picked the side presented first; 0.5 is no preference, n/a without side swap.`,
    },
    reliabilityTable(index, runsIn, params),
    argumentScoresTable(index, runsIn, params),
    humanRankingTable(index, runsIn, params),
    judgeCalibrationTable(index, runsIn, params),
    rankingsComparedTable(index, runsIn, params),
  ];
}

/** Per judge model: answers that picked a side, and how many of them picked the side shown first. */
function firstPositionPreference(judgements: Array<{ judge_model: string; result: string | null }>) {
  const tallies = new Map<string, { first: number; decided: number }>();
  for (const judgement of judgements) {
    const tally = tallies.get(judgement.judge_model) ?? { first: 0, decided: 0 };
    tallies.set(judgement.judge_model, tally);
    let swap: { presented_first?: unknown; picks?: unknown } | undefined;
    try {
      swap = (JSON.parse(judgement.result ?? 'null') as { side_swap?: typeof swap } | null)?.side_swap;
    } catch {
      swap = undefined;
    }
    // Without side swap the side shown first is always the same one, so a preference cannot be told apart.
    if (!swap || !Array.isArray(swap.presented_first) || !Array.isArray(swap.picks)) continue;
    const shownFirst: unknown[] = swap.presented_first;
    swap.picks.forEach((pick, call) => {
      if (typeof pick !== 'string' || pick === 'even' || pick === 'tie') return;
      tally.decided += 1;
      if (pick === shownFirst[call]) tally.first += 1;
    });
  }
  return tallies;
}

function preferenceText(tally: { first: number; decided: number } | undefined): string {
  if (!tally || tally.decided === 0) return 'n/a';
  return `${round2(tally.first / tally.decided)} (${tally.first} of ${tally.decided})`;
}

/**
 * The table for CSV: each "low–high" interval in two columns of numbers, "… low" and "… high",
 * so a spreadsheet can read them.
 */
export function csvTable(table: LeaderTable): LeaderTable {
  const intervals = table.columns.flatMap((column, at) => (column.endsWith(INTERVAL_COLUMN) ? [at] : []));
  if (intervals.length === 0) return table;
  const ends = (cell: Cell): Cell[] => {
    if (typeof cell !== 'string') return [null, null];
    const [low, high] = cell.split('–').map(Number);
    return Number.isFinite(low) && Number.isFinite(high) ? [low ?? null, high ?? null] : [null, null];
  };
  return {
    ...table,
    columns: table.columns.flatMap((column, at) => {
      if (!intervals.includes(at)) return [column];
      const before = column.slice(0, column.length - INTERVAL_COLUMN.length);
      return [`${before}95% low`, `${before}95% high`];
    }),
    rows: table.rows.map((row) => row.flatMap((cell, at) => (intervals.includes(at) ? ends(cell) : [cell]))),
  };
}
