/**
 * `npm run bench:tournament-adaptive [-- seeds motions pairings]`: how many debates the adaptive
 * schedule needs to reproduce the round-robin's order, on synthetic outcomes (no debate is run).
 *
 * The world: four models like the demo's line-up (llama3, mistral, qwen2.5, phi3) with true
 * strengths 0.6, 0.2, -0.2 and -0.6 log-odds (neighbours 0.4 log-odds, about 70 rating points,
 * apart: a 60-40 match), a 0.1 log-odds edge for the first side and 8% ties. Each debate's
 * outcome is drawn from a seed keyed by its models, side order and motion, so the round-robin and
 * the adaptive schedule see the same world. For each seed (1..seeds, default 20) on `motions`
 * motions (default 8) it plays the full round-robin (the reference order: its Bradley-Terry fit),
 * then the adaptive schedule `pairings` pairings (default 2, i.e. 4 debates) at a time, and the
 * round-robin itself in its plan's order at the same pace. "Settled" is the number of debates after
 * which a schedule's order matched the reference (Kendall's tau-b = 1) and kept matching it to the
 * end. Also printed: the mean tau-b of each schedule after a quarter, half and three quarters of
 * the round-robin's debates. "Rolling" is the schedule `agora tournament` runs: each next pairing
 * chosen as slots free, from the results of the debates numbered up to the lag behind it
 * (rolling-schedule.ts; the lag for `2 × pairings` debates at a time), the debates ending in the
 * order they were planned; "batches" is the schedule that waits for each batch to end.
 */
import { schedulingLag } from '../src/tournament/rolling-schedule.js';
import { roundRobinPlan } from '../src/tournament/round-robin.js';
import {
  adaptiveSteps,
  fittedRatings,
  modelsOf,
  playDebate,
  rollingSteps,
  roundRobinSteps,
  type ScheduleStep,
  type SyntheticWorld,
  settledAt,
} from '../tests/helpers/synthetic-tournament.js';

const SEEDS = Number(process.argv[2] ?? 20);
const MOTIONS = Number(process.argv[3] ?? 8);
const PAIRINGS = Number(process.argv[4] ?? 2);
const STRENGTHS = { llama3: 0.6, mistral: 0.2, 'qwen2.5': -0.2, phi3: -0.6 };

const motionIds = Array.from({ length: MOTIONS }, (_, at) => `${at + 1}`);
const tauAt = (steps: readonly ScheduleStep[], debates: number) =>
  [...steps].reverse().find((step) => step.debates <= debates)?.tau ?? 0;
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const started = performance.now();
const settled = { adaptive: [] as number[], rolling: [] as number[], roundRobin: [] as number[] };
const LAG = schedulingLag(2 * PAIRINGS);
const quarters = [0.25, 0.5, 0.75];
const taus = {
  adaptive: quarters.map(() => [] as number[]),
  rolling: quarters.map(() => [] as number[]),
  roundRobin: quarters.map(() => [] as number[]),
};
const trueTaus = {
  adaptive: quarters.map(() => [] as number[]),
  rolling: quarters.map(() => [] as number[]),
  roundRobin: quarters.map(() => [] as number[]),
};
let full = 0;
console.log('seed  round-robin  batches settled  rolling settled  round-robin settled');
for (let seed = 1; seed <= SEEDS; seed++) {
  const world: SyntheticWorld = { strengths: STRENGTHS, seed, firstSideEdge: 0.1, tieRate: 0.08 };
  const models = modelsOf(world);
  const plan = roundRobinPlan(models, motionIds);
  full = plan.length;
  const reference = fittedRatings(
    models,
    plan.map((debate) => playDebate(world, debate)),
  );
  const adaptive = adaptiveSteps(world, motionIds, reference, { pairings: PAIRINGS, seed });
  const partial = roundRobinSteps(world, motionIds, reference, PAIRINGS);
  const truth = models.map((model) => STRENGTHS[model as keyof typeof STRENGTHS]);
  const adaptiveTruth = adaptiveSteps(world, motionIds, truth, { pairings: PAIRINGS, seed });
  const partialTruth = roundRobinSteps(world, motionIds, truth, PAIRINGS);
  const rolling = rollingSteps(world, motionIds, reference, { lag: LAG, seed, every: 2 * PAIRINGS });
  const rollingTruth = rollingSteps(world, motionIds, truth, { lag: LAG, seed, every: 2 * PAIRINGS });
  const rollingSettled = settledAt(rolling) ?? full;
  settled.rolling.push(rollingSettled);
  const adaptiveSettled = settledAt(adaptive) ?? full;
  const roundRobinSettled = settledAt(partial) ?? full;
  settled.adaptive.push(adaptiveSettled);
  settled.roundRobin.push(roundRobinSettled);
  quarters.forEach((share, at) => {
    taus.adaptive[at]?.push(tauAt(adaptive, share * full));
    taus.rolling[at]?.push(tauAt(rolling, share * full));
    trueTaus.rolling[at]?.push(tauAt(rollingTruth, share * full));
    taus.roundRobin[at]?.push(tauAt(partial, share * full));
    trueTaus.adaptive[at]?.push(tauAt(adaptiveTruth, share * full));
    trueTaus.roundRobin[at]?.push(tauAt(partialTruth, share * full));
  });
  console.log(
    `${String(seed).padStart(4)}  ${String(full).padStart(11)}  ${String(adaptiveSettled).padStart(15)}  ${String(rollingSettled).padStart(15)}  ${String(roundRobinSettled).padStart(19)}`,
  );
}
const fewer = settled.adaptive.filter((value, at) => value < (settled.roundRobin[at] ?? 0)).length;
const rollingFewer = settled.rolling.filter((value, at) => value < (settled.roundRobin[at] ?? 0)).length;
console.log(
  `\nFour models, ${MOTIONS} motions, ${full} debates in the round-robin, ${PAIRINGS} pairings (${2 * PAIRINGS} debates) per batch, seeds 1-${SEEDS}.`,
);
console.log(
  `Debates until the order matched the round-robin's for good (tau-b = 1): adaptive in batches mean ${mean(settled.adaptive).toFixed(1)}, median ${median(settled.adaptive)}; adaptive rolling (lag ${LAG}) mean ${mean(settled.rolling).toFixed(1)}, median ${median(settled.rolling)}; round-robin in plan order mean ${mean(settled.roundRobin).toFixed(1)}, median ${median(settled.roundRobin)}; fewer than the round-robin on ${fewer} (batches) and ${rollingFewer} (rolling) of ${SEEDS} seeds.`,
);
quarters.forEach((share, at) => {
  console.log(
    `Mean tau-b after ${Math.round(share * full)} debates (${share * 100}%), against the full round-robin's order: batches ${mean(taus.adaptive[at] ?? []).toFixed(3)}, rolling ${mean(taus.rolling[at] ?? []).toFixed(3)}, round-robin in plan order ${mean(taus.roundRobin[at] ?? []).toFixed(3)}; against the true order: batches ${mean(trueTaus.adaptive[at] ?? []).toFixed(3)}, rolling ${mean(trueTaus.rolling[at] ?? []).toFixed(3)}, round-robin in plan order ${mean(trueTaus.roundRobin[at] ?? []).toFixed(3)}.`,
  );
});
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
