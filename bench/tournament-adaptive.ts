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
 * the round-robin's debates.
 */
import { roundRobinPlan } from '../src/tournament/round-robin.js';
import {
  adaptiveSteps,
  fittedRatings,
  modelsOf,
  playDebate,
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
const settled = { adaptive: [] as number[], roundRobin: [] as number[] };
const quarters = [0.25, 0.5, 0.75];
const taus = { adaptive: quarters.map(() => [] as number[]), roundRobin: quarters.map(() => [] as number[]) };
const trueTaus = {
  adaptive: quarters.map(() => [] as number[]),
  roundRobin: quarters.map(() => [] as number[]),
};
let full = 0;
console.log('seed  round-robin  adaptive settled  round-robin settled');
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
  const adaptiveSettled = settledAt(adaptive) ?? full;
  const roundRobinSettled = settledAt(partial) ?? full;
  settled.adaptive.push(adaptiveSettled);
  settled.roundRobin.push(roundRobinSettled);
  quarters.forEach((share, at) => {
    taus.adaptive[at]?.push(tauAt(adaptive, share * full));
    taus.roundRobin[at]?.push(tauAt(partial, share * full));
    trueTaus.adaptive[at]?.push(tauAt(adaptiveTruth, share * full));
    trueTaus.roundRobin[at]?.push(tauAt(partialTruth, share * full));
  });
  console.log(
    `${String(seed).padStart(4)}  ${String(full).padStart(11)}  ${String(adaptiveSettled).padStart(16)}  ${String(roundRobinSettled).padStart(19)}`,
  );
}
const fewer = settled.adaptive.filter((value, at) => value < (settled.roundRobin[at] ?? 0)).length;
console.log(
  `\nFour models, ${MOTIONS} motions, ${full} debates in the round-robin, ${PAIRINGS} pairings (${2 * PAIRINGS} debates) per batch, seeds 1-${SEEDS}.`,
);
console.log(
  `Debates until the order matched the round-robin's for good (tau-b = 1): adaptive mean ${mean(settled.adaptive).toFixed(1)}, median ${median(settled.adaptive)}; round-robin in plan order mean ${mean(settled.roundRobin).toFixed(1)}, median ${median(settled.roundRobin)}; adaptive needed fewer on ${fewer} of ${SEEDS} seeds.`,
);
quarters.forEach((share, at) => {
  console.log(
    `Mean tau-b after ${Math.round(share * full)} debates (${share * 100}%), against the full round-robin's order: adaptive ${mean(taus.adaptive[at] ?? []).toFixed(3)}, round-robin in plan order ${mean(taus.roundRobin[at] ?? []).toFixed(3)}; against the true order: adaptive ${mean(trueTaus.adaptive[at] ?? []).toFixed(3)}, round-robin in plan order ${mean(trueTaus.roundRobin[at] ?? []).toFixed(3)}.`,
  );
});
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
