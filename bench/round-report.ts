/**
 * The round benchmark's output: Markdown tables that read the same from run to run, so a later
 * run's column can be set beside an earlier one in the README.
 */
import type { CostProfile } from '../src/mock-ollama/index.js';
import type { DebateFigures, RoundFigures } from './round-figures.js';

const seconds = (value: number): string => value.toFixed(1);
const ratio = (value: number): string => `${value.toFixed(2)}x`;
const share = (part: number, whole: number): string => (whole > 0 ? (part / whole).toFixed(2) : '-');

function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** `desktop-gpu (prefill 5000 tok/s, decode 110 tok/s, 5 s per load, 2 models resident, 1 slot)`. */
export function describeProfile(profile: CostProfile): string {
  const models = profile.maxLoadedModels === 1 ? '1 model' : `${profile.maxLoadedModels} models`;
  const slots = profile.parallel === 1 ? '1 slot' : `${profile.parallel} slots`;
  return `${profile.name} (prefill ${profile.prefillTokensPerSecond} tok/s, decode ${profile.decodeTokensPerSecond} tok/s, ${profile.loadSeconds} s per load, ${models} resident, ${slots})`;
}

function roundRow(label: string, round: RoundFigures): string[] {
  const { seconds: by } = round;
  return [
    label,
    seconds(by.statement),
    seconds(by.judge),
    seconds(by.claims),
    seconds(by.summary),
    seconds(by.other),
    seconds(by.loads),
    seconds(round.totalSeconds),
    round.floorSeconds > 0 ? seconds(round.floorSeconds) : '-',
    round.floorSeconds > 0 ? ratio(round.ratio) : '-',
    share(round.cachedTokens, round.promptTokens),
    String(round.loads),
  ];
}

/** Every round of one debate on one profile, seconds by call kind. */
export function roundsTable(figures: DebateFigures): string {
  const head = [
    'round',
    'statements s',
    'judges s',
    'claims s',
    'summaries s',
    'other s',
    'loads s',
    'total s',
    'decode floor s',
    'total / floor',
    'cache share',
    'loads',
  ];
  return table(head, [
    roundRow('before round 1', figures.beforeRound1),
    ...figures.rounds.map((round) => roundRow(String(round.round), round)),
  ]);
}

/** The figures the performance goals are stated in. */
export interface HeadlineInputs {
  gpu: DebateFigures;
  cpu: DebateFigures;
  /** The same debate on the GPU that holds one model at a time. */
  oneModel: DebateFigures;
}

function steady(figures: DebateFigures): string {
  if (figures.steadyRatios.length === 0) return '-';
  const low = Math.min(...figures.steadyRatios);
  const high = Math.max(...figures.steadyRatios);
  const mean = figures.steadyRatios.reduce((sum, value) => sum + value, 0) / figures.steadyRatios.length;
  return `${ratio(low)}-${ratio(high)} (mean ${ratio(mean)})`;
}

function medianRound(figures: DebateFigures): RoundFigures | undefined {
  return [...figures.rounds].sort(
    (a, b) =>
      Math.abs(a.totalSeconds - figures.medianSeconds) - Math.abs(b.totalSeconds - figures.medianSeconds),
  )[0];
}

/** One column per profile: slowest and median round, steady ratio, cache share, loads. */
export function headlineTable({ gpu, cpu, oneModel }: HeadlineInputs): string {
  const slowest = (figures: DebateFigures) =>
    `${seconds(figures.slowest.totalSeconds)} s (round ${figures.slowest.round}, ${seconds(figures.slowest.seconds.loads)} s of loads)`;
  const prefillShare = (figures: DebateFigures) => {
    const middle = medianRound(figures);
    return middle ? `${Math.round((100 * middle.prefillSeconds) / middle.totalSeconds)}%` : '-';
  };
  const before = (figures: DebateFigures) =>
    `${seconds(figures.beforeRound1.totalSeconds)} s (${figures.beforeRound1.loads} loads)`;
  return table(
    ['figure', 'gpu', 'cpu'],
    [
      ['slowest round', slowest(gpu), slowest(cpu)],
      ['median round', `${seconds(gpu.medianSeconds)} s`, `${seconds(cpu.medianSeconds)} s`],
      ['prefill share of the round nearest the median', prefillShare(gpu), prefillShare(cpu)],
      ['steady rounds (3 on) / decode floor', steady(gpu), steady(cpu)],
      ['cache share (cached / prompt tokens)', gpu.cacheShare.toFixed(2), cpu.cacheShare.toFixed(2)],
      ['model loading before round 1', before(gpu), before(cpu)],
      [
        'model loads, 2 models resident (minimum)',
        `${gpu.loads} (${gpu.minimumLoads})`,
        `${cpu.loads} (${cpu.minimumLoads})`,
      ],
      ['model loads, 1 model resident (minimum)', `${oneModel.loads} (${oneModel.minimumLoads})`, '-'],
    ],
  );
}

/** One line per shipped knockout scenario on the GPU profile. */
export function scenariosTable(
  rows: Array<{ file: string; rounds: number; figures: DebateFigures }>,
): string {
  return table(
    ['scenario', 'rounds', 'cache share', 'slowest round s', 'median round s', 'steady / floor'],
    rows.map(({ file, rounds, figures }) => [
      file,
      String(rounds),
      figures.cacheShare.toFixed(2),
      seconds(figures.slowest.totalSeconds),
      seconds(figures.medianSeconds),
      steady(figures),
    ]),
  );
}

/** The reference debate with every agent on one model (or another variant): one line each. */
export function sameModelTable(rows: Array<{ model: string; figures: DebateFigures }>): string {
  return table(
    ['every agent on', 'cache share', 'slowest round s', 'median round s', 'steady / floor'],
    rows.map(({ model, figures }) => [
      model,
      figures.cacheShare.toFixed(2),
      `${seconds(figures.slowest.totalSeconds)} (round ${figures.slowest.round})`,
      seconds(figures.medianSeconds),
      steady(figures),
    ]),
  );
}
