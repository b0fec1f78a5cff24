/**
 * Adaptive scheduling: which pairings a tournament plays next, so that it reaches the ranking a
 * full round-robin would give with fewer debates. Pure and deterministic: no I/O, no clock, and the
 * same inputs and seed give the same batch.
 *
 * The rule, applied each time a batch of pairings is wanted (a pairing is two models on one motion,
 * debated twice with the sides swapped):
 *
 * 1. Fit Bradley-Terry (ties as half wins, the leaderboard's prior) to the debates finished so far.
 * 2. For every pair of models, estimate the probability that the fit has their order wrong:
 *    P = Φ(−|θa − θb| / sd), where sd comes from the fit's curvature (the Laplace approximation).
 *    Debates already scheduled whose results are not in yet count as information on its way: they
 *    narrow sd as their games would, without moving θ.
 * 3. Give the next pairing to the pair with the highest P among the pairs whose two models have
 *    not played yet in this round of the batch (Swiss-like rounds: each model once per round; when
 *    every open pair has a model that already played, a new round starts). Add its two debates to
 *    the information on its way, which lowers that pair's P, and repeat until the batch is full.
 *    Pairs the fit cannot yet tell apart are neighbours in the ranking, so this pairs models of
 *    like strength, as a Swiss system does, keeps every model playing, and stops spending debates
 *    on pairs whose order is already clear.
 * 4. A pair never plays a motion it has already been scheduled on (in either side order); a pair
 *    with no motion left is out. Equal P: the pair with fewer debates scheduled first, then a
 *    seeded draw.
 * 5. The motion: the one the two models have been scheduled on least (both counted), then the one
 *    scheduled least in the whole tournament, then a seeded draw; which model sits first in the
 *    first of the two debates is a seeded draw too.
 *
 * Before any result every pair is equally uncertain (P = 0.5), so the first batches spread over all
 * pairs, fewest-met first, like the first rounds of a round-robin.
 */
import type { PairwiseTotals } from '../analytics/bradley-terry-fit.js';
import { fitLogStrengths } from '../analytics/bradley-terry-fit.js';
import { pairOrderUncertainty } from '../analytics/order-uncertainty.js';
import { createRandomStream } from '../analytics/random-stream.js';
import type { TournamentMatch } from '../analytics/tournament-match.js';
import { pairingKey, type ScheduledDebate } from './round-robin.js';

export type { ScheduledDebate } from './round-robin.js';

/** What the rule reads. */
export interface AdaptiveBatchRequest {
  /** The tournament's models (at least two). */
  models: readonly string[];
  /** The tournament's motion ids. */
  motionIds: readonly string[];
  /** Finished debates; those with a null score are left out of the fit. */
  results: readonly Pick<TournamentMatch, 'first' | 'second' | 'motionId' | 'score'>[];
  /**
   * Every debate already scheduled, finished or not (running, failed, waiting). The results need not
   * be listed again: a (pair, motion) in either list is never scheduled again.
   */
  scheduled?: readonly ScheduledDebate[];
  /** Pairings wanted in this batch; each is two debates, so the batch holds twice as many. */
  pairings: number;
  /** Seed of the draws that break ties. */
  seed: number;
}

/** The next debates to run, in pairs with the sides swapped; fewer (or none) when pairings run out. */
export function nextAdaptiveBatch(request: AdaptiveBatchRequest): ScheduledDebate[] {
  const models = [...new Set(request.models)];
  const motions = [...new Set(request.motionIds)];
  if (models.length < 2) throw new RangeError(`an adaptive schedule needs two models, got ${models.length}`);
  if (!(Number.isInteger(request.pairings) && request.pairings >= 0)) {
    throw new RangeError(`pairings must be a non-negative integer, got ${request.pairings}`);
  }
  const indexOf = new Map(models.map((model, at) => [model, at]));
  const known = (debate: { first: string; second: string }) =>
    indexOf.has(debate.first) && indexOf.has(debate.second) && debate.first !== debate.second;
  const scheduled = [
    ...(request.scheduled ?? []),
    ...request.results.map(({ first, second, motionId }) => ({ first, second, motionId })),
  ].filter(known);
  const random = createRandomStream(derivedSeed(request.seed, scheduled.length));

  // The fit to the results so far.
  const n = models.length;
  const scores = new Float64Array(n);
  const fittedGames = new Map<number, number>();
  const pairIndex = (a: number, b: number) => Math.min(a, b) * n + Math.max(a, b);
  for (const result of request.results) {
    if (result.score === null || !known(result)) continue;
    const a = indexOf.get(result.first) ?? 0;
    const b = indexOf.get(result.second) ?? 0;
    scores[a] = (scores[a] ?? 0) + result.score;
    scores[b] = (scores[b] ?? 0) + 1 - result.score;
    fittedGames.set(pairIndex(a, b), (fittedGames.get(pairIndex(a, b)) ?? 0) + 1);
  }
  const asPairs = (games: Map<number, number>): PairwiseTotals['pairs'] =>
    [...games].map(([key, count]) => ({ first: Math.floor(key / n), second: key % n, games: count }));
  const totals: PairwiseTotals = { playerCount: n, scores, pairs: asPairs(fittedGames) };
  const theta = fitLogStrengths(totals);

  // Information on its way: the fitted games, plus every scheduled debate not finished yet.
  const finished = new Set(request.results.map((result) => debateKey(result)));
  const allGames = new Map(fittedGames);
  const pairDebates = new Map<number, number>();
  const taken = new Set<string>();
  const modelMotion = new Map<string, number>();
  const motionUse = new Map<string, number>();
  for (const debate of dedupe(scheduled)) {
    const key = pairIndex(indexOf.get(debate.first) ?? 0, indexOf.get(debate.second) ?? 0);
    pairDebates.set(key, (pairDebates.get(key) ?? 0) + 1);
    if (!finished.has(debateKey(debate))) allGames.set(key, (allGames.get(key) ?? 0) + 1);
    taken.add(pairingKey(debate));
    for (const model of [debate.first, debate.second]) {
      const used = JSON.stringify([model, debate.motionId]);
      modelMotion.set(used, (modelMotion.get(used) ?? 0) + 1);
    }
    motionUse.set(debate.motionId, (motionUse.get(debate.motionId) ?? 0) + 1);
  }

  // A seeded draw per pair, fixed for this batch, breaks exact ties between pairs.
  const draws = new Map<number, number>();
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) draws.set(pairIndex(a, b), random());

  const batch: ScheduledDebate[] = [];
  let busy = new Set<number>();
  for (let pick = 0; pick < request.pairings; pick++) {
    const open = pairOrderUncertainty(theta, asPairs(allGames)).filter(({ first, second }) =>
      motions.some(
        (motionId) =>
          !taken.has(
            pairingKey({ first: models[first] as string, second: models[second] as string, motionId }),
          ),
      ),
    );
    if (open.length === 0) break;
    // Swiss-like rounds: a model plays once per round; when every open pair has a model that
    // already played in this round, a new round starts.
    let free = open.filter((pair) => !busy.has(pair.first) && !busy.has(pair.second));
    if (free.length === 0) {
      busy = new Set();
      free = open;
    }
    free.sort((x, y) => {
      const gap = y.probabilityWrong - x.probabilityWrong;
      if (Math.abs(gap) > 1e-12) return gap;
      const xKey = pairIndex(x.first, x.second);
      const yKey = pairIndex(y.first, y.second);
      const fewer = (pairDebates.get(xKey) ?? 0) - (pairDebates.get(yKey) ?? 0);
      return fewer !== 0 ? fewer : (draws.get(xKey) ?? 0) - (draws.get(yKey) ?? 0);
    });
    const chosen = free[0];
    if (!chosen) break;
    const a = models[chosen.first] as string;
    const b = models[chosen.second] as string;
    const motionId = chooseMotion(a, b, motions, taken, modelMotion, motionUse, random);
    const [first, second] = random() < 0.5 ? [a, b] : [b, a];
    const debates = [
      { first, second, motionId },
      { first: second, second: first, motionId },
    ];
    batch.push(...debates);
    busy.add(chosen.first);
    busy.add(chosen.second);
    const key = pairIndex(chosen.first, chosen.second);
    allGames.set(key, (allGames.get(key) ?? 0) + 2);
    pairDebates.set(key, (pairDebates.get(key) ?? 0) + 2);
    taken.add(pairingKey(debates[0] as ScheduledDebate));
    for (const model of [a, b]) {
      const used = JSON.stringify([model, motionId]);
      modelMotion.set(used, (modelMotion.get(used) ?? 0) + 2);
    }
    motionUse.set(motionId, (motionUse.get(motionId) ?? 0) + 2);
  }
  return batch;
}

function chooseMotion(
  a: string,
  b: string,
  motions: readonly string[],
  taken: ReadonlySet<string>,
  modelMotion: ReadonlyMap<string, number>,
  motionUse: ReadonlyMap<string, number>,
  random: () => number,
): string {
  const candidates = motions
    .filter((motionId) => !taken.has(pairingKey({ first: a, second: b, motionId })))
    .map((motionId) => ({
      motionId,
      byPair:
        (modelMotion.get(JSON.stringify([a, motionId])) ?? 0) +
        (modelMotion.get(JSON.stringify([b, motionId])) ?? 0),
      overall: motionUse.get(motionId) ?? 0,
      draw: random(),
    }));
  candidates.sort((x, y) => x.byPair - y.byPair || x.overall - y.overall || x.draw - y.draw);
  return candidates[0]?.motionId ?? '';
}

const debateKey = (debate: ScheduledDebate) => JSON.stringify([debate.first, debate.second, debate.motionId]);

// The same debate listed in both lists (a finished one also in `scheduled`) counts once.
function dedupe(debates: readonly ScheduledDebate[]): ScheduledDebate[] {
  const seen = new Set<string>();
  return debates.filter((debate) => {
    const key = debateKey(debate);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// A seed per decision, so the draw depends on how far the tournament has got, not on a shared stream.
function derivedSeed(seed: number, progress: number): number {
  let hash = 0x811c9dc5;
  for (const character of `${seed}:adaptive:${progress}`) {
    hash ^= character.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
