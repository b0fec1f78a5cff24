/**
 * Judges calibrated against people: on the debates people voted on in the blind arena, how often
 * each judge model's verdict on the whole debate was the people's verdict, with Cohen's kappa to
 * correct that for chance, beside how often it agreed with the other judges of the same debates.
 * Below `MIN_DEBATES` debates the report says there are too few to tell.
 */
import type { RunIndex } from '../store/run-index.js';
import { arenaRecords, peoplesVerdict } from './arena-records.js';
import { cohenKappa, kappaWords } from './cohen-kappa.js';
import { proportionInterval } from './intervals.js';
import type { LeaderTable } from './leaderboard.js';

type Cell = string | number | null;

/** Debates a judge model needs, with people's votes, before its agreement with them says much. */
export const MIN_DEBATES = 10;

const round2 = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

interface Tally {
  debates: Set<string>;
  /** Pairs of (judge's verdict, people's verdict). */
  pairs: Array<[string, string]>;
  /** Pairs of this judge's verdict with another judge's on the same debate. */
  withJudges: { agree: number; total: number };
}

export function judgeCalibrationTable(index: RunIndex, runsIn: string, params: Cell[]): LeaderTable {
  const tallies = new Map<string, Tally>();
  let debates = 0;
  for (const record of arenaRecords(index, runsIn, params)) {
    const people = peoplesVerdict(record.votes);
    if (!people || record.verdicts.length === 0) continue;
    debates += 1;
    record.verdicts.forEach((verdict, at) => {
      const tally = tallies.get(verdict.model) ?? {
        debates: new Set<string>(),
        pairs: [],
        withJudges: { agree: 0, total: 0 },
      };
      tally.debates.add(record.runId);
      tally.pairs.push([verdict.verdict, people]);
      record.verdicts.forEach((other, otherAt) => {
        if (otherAt === at) return;
        tally.withJudges.total += 1;
        if (other.verdict === verdict.verdict) tally.withJudges.agree += 1;
      });
      tallies.set(verdict.model, tally);
    });
  }
  const rows = [...tallies]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([model, tally]): Cell[] => {
      const agreed = tally.pairs.filter(([judge, people]) => judge === people).length;
      const interval = proportionInterval(agreed, tally.pairs.length);
      const kappa = cohenKappa(tally.pairs);
      const others = tally.withJudges;
      return [
        model,
        tally.debates.size,
        tally.pairs.length,
        agreed,
        round2(interval?.rate ?? null),
        interval ? `${round2(interval.low)}–${round2(interval.high)}` : null,
        round2(kappa),
        others.total === 0
          ? null
          : `${round2(others.agree / others.total)} (${others.agree} of ${others.total})`,
        reading(tally.debates.size, kappa),
      ];
    });
  return {
    title: 'Judges against people (blind arena)',
    columns: [
      'Judge model',
      'Debates',
      'Verdicts',
      'Agreed with people',
      'Agreement',
      '95% interval',
      "Cohen's kappa",
      'Agreement with other judges',
      'Reading',
    ],
    rows,
    note: `${debates} debate${debates === 1 ? '' : 's'} with both people's votes and judges' verdicts. The people's verdict on a debate is the answer most of its voters gave (a tie when two lead equally); a judge's verdict is its verdict on the whole debate: the formal verdict's winner, the duel side it found stronger in more rounds, and in a knockout Position X when more of its votes went against the Y debater than for them (Position Y when fewer, a tie when as many). Agreement: the share of a judge model's verdicts that were the people's, with a 95% Wilson interval; Cohen's kappa corrects it for chance (0: no better than chance, 1: always the same). Agreement with other judges: its verdicts against the other judges' on the same debates (none where a debate has one judge). Below ${MIN_DEBATES} debates there are too few votes to tell.`,
  };
}

function reading(debates: number, kappa: number | null): string {
  if (debates < MIN_DEBATES) return `too few votes to tell (${debates} of the ${MIN_DEBATES} debates needed)`;
  if (kappa === null) return 'kappa undefined: one answer throughout';
  return `${kappaWords(kappa)} agreement with people beyond chance`;
}
