/**
 * Judges calibrated against people: on the debates people voted on blind in the arena, how often
 * each judge model's verdict on the whole debate was the people's verdict, with Cohen's kappa to
 * correct that for chance, beside how often it agreed with the other judge models on the same
 * debates. The unit is the debate throughout:
 * - a judge model gives one verdict per debate, the majority of its judges in it (judges who
 *   debated in it left out, see `debate-sides.ts`);
 * - every format's answers are put on one scale (first side, second side, tie) before pooling, and
 *   a model that judged more than one format also has a row per format;
 * - the agreement's interval is Wilson's over debates, kappa's a bootstrap over debates;
 * - agreement with other judges counts each unordered pair of judge models on a debate once.
 * Below `MIN_DEBATES` debates the report says there are too few to tell.
 */
import type { RunIndex } from '../store/run-index.js';
import { type ArenaRecord, arenaRecords, peoplesVerdict } from './arena-records.js';
import { cohenKappa, kappaWords } from './cohen-kappa.js';
import { bootstrapOverDebates, DEBATE_RESAMPLES } from './debate-bootstrap.js';
import { modelVerdicts, onScale, type ScaleAnswer } from './debate-sides.js';
import { proportionInterval } from './intervals.js';
import type { LeaderTable } from './leader-table.js';

type Cell = string | number | null;

/** Debates a judge model needs, with people's votes, before its agreement with them says much. */
export const MIN_DEBATES = 10;

const ALL_FORMATS = 'all';

const round2 = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

/** One debate as the calibration reads it: each judge model's verdict and the people's, on one scale. */
export interface CalibrationDebate {
  runId: string;
  format: string;
  people: ScaleAnswer;
  /** Per judge model, its one verdict on the debate. */
  judges: Map<string, ScaleAnswer>;
}

/** The debates with both people's votes and a judge model's verdict, on the common scale. */
export function calibrationDebates(records: readonly ArenaRecord[]): CalibrationDebate[] {
  return records.flatMap((record): CalibrationDebate[] => {
    const people = peoplesVerdict(record.votes);
    const verdicts = modelVerdicts(record.verdicts);
    if (!people || verdicts.length === 0) return [];
    return [
      {
        runId: record.runId,
        format: record.format,
        people: onScale(record.sides, people),
        judges: new Map(verdicts.map((verdict) => [verdict.model, onScale(record.sides, verdict.verdict)])),
      },
    ];
  });
}

/** One judge model's row: over the given debates (all formats, or one). */
export interface CalibrationRow {
  model: string;
  format: string;
  debates: number;
  agreed: number;
  agreement: number | null;
  low: number | null;
  high: number | null;
  kappa: number | null;
  kappaLow: number | null;
  kappaHigh: number | null;
  /** Unordered pairs of this model's verdict and another judge model's on the same debate. */
  others: { agree: number; pairs: number };
}

function pairsOf(model: string, debates: readonly CalibrationDebate[]): Array<[string, string]> {
  return debates.flatMap((debate): Array<[string, string]> => {
    const judge = debate.judges.get(model);
    return judge ? [[judge, debate.people]] : [];
  });
}

export function calibrationRow(
  model: string,
  format: string,
  debates: readonly CalibrationDebate[],
): CalibrationRow {
  const own = debates.filter((debate) => debate.judges.has(model));
  const pairs = pairsOf(model, own);
  const agreed = pairs.filter(([judge, people]) => judge === people).length;
  const interval = proportionInterval(agreed, pairs.length);
  const kappa = cohenKappa(pairs);
  const spread = bootstrapOverDebates(own, (sample) => cohenKappa(pairsOf(model, sample)));
  const others = { agree: 0, pairs: 0 };
  for (const debate of own) {
    const verdict = debate.judges.get(model);
    for (const [other, answer] of debate.judges) {
      if (other === model) continue;
      others.pairs += 1;
      if (answer === verdict) others.agree += 1;
    }
  }
  return {
    model,
    format,
    debates: own.length,
    agreed,
    agreement: interval?.rate ?? null,
    low: interval?.low ?? null,
    high: interval?.high ?? null,
    kappa,
    kappaLow: spread?.low ?? null,
    kappaHigh: spread?.high ?? null,
    others,
  };
}

/** Every judge model's row over all formats, then a row per format for a model that judged several. */
export function calibrationRows(debates: readonly CalibrationDebate[]): CalibrationRow[] {
  const models = [...new Set(debates.flatMap((debate) => [...debate.judges.keys()]))].sort((a, b) =>
    a.localeCompare(b),
  );
  return models.flatMap((model) => {
    const formats = [
      ...new Set(debates.filter((debate) => debate.judges.has(model)).map((debate) => debate.format)),
    ].sort();
    const pooled = calibrationRow(
      model,
      formats.length === 1 ? (formats[0] ?? ALL_FORMATS) : ALL_FORMATS,
      debates,
    );
    if (formats.length < 2) return [pooled];
    return [
      pooled,
      ...formats.map((format) =>
        calibrationRow(
          model,
          format,
          debates.filter((debate) => debate.format === format),
        ),
      ),
    ];
  });
}

const range = (low: number | null, high: number | null) =>
  low === null || high === null ? null : `${round2(low)}–${round2(high)}`;

export function judgeCalibrationTable(index: RunIndex, runsIn: string, params: Cell[]): LeaderTable {
  const records = arenaRecords(index, runsIn, params);
  const debates = calibrationDebates(records);
  const notBlind = records.reduce((sum, record) => sum + record.notBlind, 0);
  const rows = calibrationRows(debates).map((row): Cell[] => [
    row.model,
    row.format,
    row.debates,
    row.agreed,
    round2(row.agreement),
    range(row.low, row.high),
    round2(row.kappa),
    range(row.kappaLow, row.kappaHigh),
    row.others.pairs === 0
      ? null
      : `${round2(row.others.agree / row.others.pairs)} (${row.others.agree} of ${row.others.pairs})`,
    reading(row.debates, row.kappa),
  ]);
  // Each unordered pair of judge models on a debate, once.
  let pairs = 0;
  let agreeing = 0;
  for (const debate of debates) {
    const answers = [...debate.judges.values()];
    answers.forEach((answer, at) => {
      for (const other of answers.slice(at + 1)) {
        pairs += 1;
        if (other === answer) agreeing += 1;
      }
    });
  }
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return {
    title: 'Judges against people (blind arena)',
    columns: [
      'Judge model',
      'Format',
      'Debates',
      'Agreed with people',
      'Agreement',
      '95% interval',
      "Cohen's kappa",
      'Kappa 95% interval',
      'Agreement with other judges',
      'Reading',
    ],
    rows,
    note: `${count(debates.length, 'debate')} with both people's blind votes and judges' verdicts${notBlind > 0 ? `; ${count(notBlind, 'vote')} from browsers that had seen the names first, kept apart and not counted` : ''}. The unit is the debate: a judge model gives one verdict per debate, the one most of its judges in it gave (judges who debated in it left out; a tie when two lead equally); the people's verdict is the answer most of the debate's voters gave. A judge's verdict: the formal verdict's winner, the duel side it found stronger in more rounds, in a knockout Position X when more of its votes went against the Y debater than for them (Position Y when fewer). Every format's answers are put on one scale (first side: X, affirmative, A; second side: Y, negative, B; tie) before they are pooled; a model that judged several formats has a row per format under its row for all. Agreement: the share of its debates where its verdict was the people's, with a 95% Wilson interval over debates; Cohen's kappa corrects it for chance (0: no better than chance, 1: always the same), its interval from ${DEBATE_RESAMPLES} bootstrap resamples of the debates. Agreement with other judges: its verdict against each other judge model's on the same debate, each pair once (over all judge models: ${pairs === 0 ? 'no pairs' : `${round2(agreeing / pairs)}, ${agreeing} of ${count(pairs, 'pair')}`}). Below ${MIN_DEBATES} debates there are too few votes to tell.`,
  };
}

function reading(debates: number, kappa: number | null): string {
  if (debates < MIN_DEBATES) return `too few votes to tell (${debates} of the ${MIN_DEBATES} debates needed)`;
  if (kappa === null) return 'kappa undefined: one answer throughout';
  return `${kappaWords(kappa)} agreement with people beyond chance`;
}
