/**
 * Per-round figures of a recorded knockout debate: simulated seconds by call kind, the decode
 * floor (the two statements and the judges' answers at the decode rate, the least a round can
 * take), the cache share and model loads; then the debate's slowest, median and steady rounds.
 */
import type { CostProfile } from '../src/mock-ollama/index.js';
import type { CallKind, RecordedCall } from './round-recorder.js';

/** The columns a round's time is split into; `loads` holds every model load of the round. */
export const TIME_COLUMNS = ['statement', 'judge', 'claims', 'summary', 'other', 'loads'] as const;
export type TimeColumn = (typeof TIME_COLUMNS)[number];

/** One round (round 0: what happened before round 1). */
export interface RoundFigures {
  round: number;
  seconds: Record<TimeColumn, number>;
  totalSeconds: number;
  /** Seconds spent reading prompts (prefill), of `totalSeconds`. */
  prefillSeconds: number;
  floorSeconds: number;
  /** `totalSeconds / floorSeconds`; 0 when the round has no floor (round 0). */
  ratio: number;
  promptTokens: number;
  cachedTokens: number;
  loads: number;
}

/** A whole debate. */
export interface DebateFigures {
  beforeRound1: RoundFigures;
  rounds: RoundFigures[];
  slowest: RoundFigures;
  medianSeconds: number;
  /** Ratios of rounds 3 to the last (the steady state, once the first two rounds are in the window). */
  steadyRatios: number[];
  cacheShare: number;
  loads: number;
  /** The fewest loads the rules allow: statements and judges must run on their own models. */
  minimumLoads: number;
}

function columnOf(kind: CallKind): TimeColumn {
  if (kind === 'statement' || kind === 'judge' || kind === 'claims' || kind === 'summary') return kind;
  return kind === 'load' ? 'loads' : 'other';
}

const callSeconds = (call: RecordedCall): number =>
  call.loadSeconds + call.prefillSeconds + call.decodeSeconds;

/** Finishing time of jobs on `slots` parallel slots, each job to the slot that frees first. */
function makespan(durations: number[], slots: number): number {
  const free = new Array<number>(Math.max(1, slots)).fill(0);
  for (const duration of durations) {
    const slot = free.indexOf(Math.min(...free));
    free[slot] = (free[slot] as number) + duration;
  }
  return Math.max(0, ...free);
}

function figuresOf(
  round: number,
  calls: RecordedCall[],
  profile: CostProfile,
  judgeSlots: number,
): RoundFigures {
  const seconds = Object.fromEntries(TIME_COLUMNS.map((column) => [column, 0])) as Record<TimeColumn, number>;
  for (const call of calls) {
    seconds[columnOf(call.kind)] += call.prefillSeconds + call.decodeSeconds;
    seconds.loads += call.loadSeconds;
  }
  // Judges run at once: on each model they share its slots; different models run side by side.
  const judges = calls.filter((call) => call.kind === 'judge');
  const judgeModels = [...new Set(judges.map((call) => call.model))];
  const judgeSpan = Math.max(
    0,
    ...judgeModels.map((model) =>
      makespan(
        judges.filter((call) => call.model === model).map(callSeconds),
        Math.min(judgeSlots, profile.parallel),
      ),
    ),
  );
  const judgeSum = judges.reduce((sum, call) => sum + callSeconds(call), 0);
  seconds.judge -= judgeSum - judgeSpan;
  const totalSeconds = calls.reduce((sum, call) => sum + callSeconds(call), 0) - (judgeSum - judgeSpan);
  const floorTokens = calls
    .filter((call) => call.kind === 'statement' || call.kind === 'judge')
    .reduce((sum, call) => sum + call.outputTokens, 0);
  const floorSeconds = floorTokens / profile.decodeTokensPerSecond;
  return {
    round,
    seconds,
    totalSeconds,
    prefillSeconds: calls.reduce((sum, call) => sum + call.prefillSeconds, 0),
    floorSeconds,
    ratio: floorSeconds > 0 ? totalSeconds / floorSeconds : 0,
    promptTokens: calls.reduce((sum, call) => sum + call.promptTokens, 0),
    cachedTokens: calls.reduce((sum, call) => sum + call.cachedTokens, 0),
    loads: calls.filter((call) => call.loadSeconds > 0).length,
  };
}

/** The loads a machine holding `resident` models needs for this order of models (least recently used out). */
export function loadsFor(order: readonly string[], resident: number): number {
  const loaded: string[] = [];
  let loads = 0;
  for (const model of order) {
    const at = loaded.indexOf(model);
    if (at !== -1) loaded.splice(at, 1);
    else {
      loads += 1;
      if (loaded.length >= resident) loaded.shift();
    }
    loaded.push(model);
  }
  return loads;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The figures of a debate from its recorded calls; `judgeSlots` is how many judges may run at once. */
export function debateFigures(
  calls: RecordedCall[],
  profile: CostProfile,
  judgeSlots: number,
): DebateFigures {
  const numbers = [...new Set(calls.map((call) => call.round).filter((round) => round > 0))].sort(
    (a, b) => a - b,
  );
  const rounds = numbers.map((round) =>
    figuresOf(
      round,
      calls.filter((call) => call.round === round),
      profile,
      judgeSlots,
    ),
  );
  const slowest = rounds.reduce((worst, round) => (round.totalSeconds > worst.totalSeconds ? round : worst));
  const forced = calls
    .filter((call) => call.kind === 'statement' || call.kind === 'judge')
    .map((c) => c.model);
  const prompt = calls.reduce((sum, call) => sum + call.promptTokens, 0);
  return {
    beforeRound1: figuresOf(
      0,
      calls.filter((call) => call.round === 0),
      profile,
      judgeSlots,
    ),
    rounds,
    slowest,
    medianSeconds: median(rounds.map((round) => round.totalSeconds)),
    steadyRatios: rounds.filter((round) => round.round >= 3).map((round) => round.ratio),
    cacheShare: prompt > 0 ? calls.reduce((sum, call) => sum + call.cachedTokens, 0) / prompt : 0,
    loads: calls.filter((call) => call.loadSeconds > 0).length,
    minimumLoads: loadsFor(forced, profile.maxLoadedModels),
  };
}
