/**
 * How many debates stand between the top model and the next: the fewest debates whose outcome would
 * have to change for another model to come out top of the Bradley-Terry fit.
 *
 * A change turns a win into a loss for the same side, or a tie into a win for either side. The fit
 * depends on the results only through each model's points, and a change moves points between the
 * two models of one pairing (1 for a flipped win, 0.5 for a decided tie), so the search runs over the
 * net points moved within each pairing, each costed at the fewest debates that move them.
 *
 * Two passes, both refitting the model on every candidate:
 * 1. greedy, once per challenger: change, one debate at a time, the outcome that narrows the top
 *    model's lead over that challenger most, until any model other than the top one leads the fit.
 *    Every step is a real refit, so the set found is verified: it does change the top model.
 * 2. exact, breadth first over the number of debates changed, below the greedy count: every
 *    distinct allocation of changes is refitted. When it finishes, the answer is exact; when the
 *    allocations outgrow `searchLimit`, the greedy count stands as an upper bound and the last
 *    level searched in full gives a lower bound.
 */
import { toRatings } from './bradley-terry.js';
import { type CovariateGame, fitStyleControlled } from './style-controlled-fit.js';

/** A rated debate, with models as indices into the players. */
export interface RatedDebate {
  first: number;
  second: number;
  /** The first side's result: 1, 0.5 or 0. */
  score: number;
  runId: string;
}

/** One debate's outcome changed: the first side's result before and after. */
export interface OutcomeChange {
  runId: string;
  score: number;
  changedTo: number;
}

/** The robustness line of a ranking. */
export interface TopRobustness {
  /** The model at the top of the plain Bradley-Terry fit. */
  topModel: string;
  /** The fewest debates found whose changed outcomes put another model on top; null if none do. */
  debates: number | null;
  /** `exact`: no fewer debates can do it (searched); `greedy`: a verified set, the fewest may be smaller. */
  method: 'exact' | 'greedy';
  /** No set of fewer debates does it (equals `debates` when exact). */
  lowerBound: number;
  /** The model on top after the changes. */
  newTopModel: string | null;
  /** The changes found, one per debate. */
  changes: OutcomeChange[];
}

/** How much of the exact search to allow: distinct allocations refitted. */
export const ROBUSTNESS_SEARCH_LIMIT = 20_000;

// One pairing of two models (a < b) and the debates that could move points between them.
interface Pairing {
  a: number;
  b: number;
  games: number;
  /** Debates a won, b won, and tied. */
  aWins: RatedDebate[];
  bWins: RatedDebate[];
  ties: RatedDebate[];
}

// Ratings closer than this are equal (and listed by name): a refit converges to about 1e-8 points,
// and a lead of a millionth of a point is no lead.
const RATING_EPSILON = 1e-6;

/**
 * The robustness of the top of the plain fit to changed outcomes; null with fewer than two players.
 * `players` must be sorted by name (the order in which equal ratings are listed).
 */
export function topModelRobustness(
  players: readonly string[],
  debates: readonly RatedDebate[],
  options: { searchLimit?: number } = {},
): TopRobustness | null {
  if (players.length < 2 || debates.length === 0) return null;
  const searchLimit = options.searchLimit ?? ROBUSTNESS_SEARCH_LIMIT;
  const pairings = pairingsOf(debates, players.length);
  // The fit reads one row per pairing: its games and model a's mean result (the same objective as
  // the debates one by one, as the likelihood depends on the totals only), solved by Newton's method.
  const baseRows = pairings.map(
    (pairing): CovariateGame => ({
      first: pairing.a,
      second: pairing.b,
      score: (pairing.aWins.length + pairing.ties.length / 2) / pairing.games,
      weight: pairing.games,
      covariates: [],
    }),
  );
  const start = fitStyleControlled(baseRows, players.length, 0);
  const fitCache = new Map<string, Float64Array>();
  // Ratings after moving `moved[p]` half-points from a to b within each pairing p.
  const ratingsAfter = (moved: readonly number[]): Float64Array => {
    const key = moved.join(',');
    const cached = fitCache.get(key);
    if (cached) return cached;
    const rows = baseRows.map((row, p) => {
      const halves = moved[p] ?? 0;
      return halves === 0 ? row : { ...row, score: row.score - halves / 2 / (row.weight ?? 1) };
    });
    const ratings = toRatings(fitStyleControlled(rows, players.length, 0, start).logStrengths);
    fitCache.set(key, ratings);
    return ratings;
  };
  const top = topOf(ratingsAfter(pairings.map(() => 0)));
  const costOf = (moved: readonly number[]) =>
    moved.reduce((sum, halves, p) => sum + pairingCost(pairings[p] as Pairing, halves), 0);
  // Every allocation one more debate away: a pairing's net move changed by one or two half-points.
  const neighbours = function* (moved: number[], cost: number): Generator<number[]> {
    for (let p = 0; p < moved.length; p++) {
      const pairing = pairings[p] as Pairing;
      const was = moved[p] ?? 0;
      for (const delta of [2, 1, -1, -2]) {
        const next = pairingCost(pairing, was + delta);
        if (cost - pairingCost(pairing, was) + next !== cost + 1) continue;
        const copy = [...moved];
        copy[p] = was + delta;
        yield copy;
      }
    }
  };

  // Greedy, per challenger: the best single next change each time, until the top changes.
  let best: { moved: number[]; cost: number; newTop: number } | null = null;
  for (let challenger = 0; challenger < players.length; challenger++) {
    if (challenger === top) continue;
    let moved = pairings.map(() => 0);
    let cost = 0;
    for (;;) {
      if (best !== null && cost + 1 >= best.cost) break;
      let chosen: { moved: number[]; lead: number; newTop: number } | null = null;
      for (const candidate of neighbours(moved, cost)) {
        const ratings = ratingsAfter(candidate);
        const newTop = topOf(ratings);
        const lead = (ratings[top] ?? 0) - (ratings[challenger] ?? 0);
        const changed = newTop !== top;
        if (
          chosen === null ||
          (changed && chosen.newTop === top) ||
          (changed === (chosen.newTop !== top) && lead < chosen.lead - RATING_EPSILON)
        ) {
          chosen = { moved: candidate, lead, newTop };
        }
      }
      if (chosen === null) break;
      moved = chosen.moved;
      cost += 1;
      if (chosen.newTop !== top) {
        best = { moved, cost, newTop: chosen.newTop };
        break;
      }
    }
  }

  // Exact, breadth first, below the greedy count.
  const ceiling = best?.cost ?? Number.POSITIVE_INFINITY;
  let level: number[][] = [pairings.map(() => 0)];
  const seen = new Set<string>([level[0]?.join(',') ?? '']);
  let searched = 0;
  let exhausted = false;
  while (searched + 1 < ceiling && !exhausted) {
    const next: number[][] = [];
    for (const moved of level) {
      for (const candidate of neighbours(moved, searched)) {
        const key = candidate.join(',');
        if (seen.has(key)) continue;
        seen.add(key);
        if (seen.size > searchLimit) {
          exhausted = true;
          break;
        }
        next.push(candidate);
        const newTop = topOf(ratingsAfter(candidate));
        if (newTop !== top) {
          best = { moved: candidate, cost: costOf(candidate), newTop };
          return result(players, pairings, top, best, 'exact', best.cost);
        }
      }
      if (exhausted) break;
    }
    if (exhausted) break;
    searched += 1;
    level = next;
    if (next.length === 0) break;
  }
  if (best === null) {
    return {
      topModel: players[top] ?? '',
      debates: null,
      method: exhausted ? 'greedy' : 'exact',
      lowerBound: searched + 1,
      newTopModel: null,
      changes: [],
    };
  }
  return exhausted
    ? result(players, pairings, top, best, 'greedy', searched + 1)
    : result(players, pairings, top, best, 'exact', best.cost);
}

function result(
  players: readonly string[],
  pairings: readonly Pairing[],
  top: number,
  found: { moved: number[]; cost: number; newTop: number },
  method: 'exact' | 'greedy',
  lowerBound: number,
): TopRobustness {
  return {
    topModel: players[top] ?? '',
    debates: found.cost,
    method,
    lowerBound: Math.min(lowerBound, found.cost),
    newTopModel: players[found.newTop] ?? null,
    changes: found.moved.flatMap((halves, p) => changesFor(pairings[p] as Pairing, halves)),
  };
}

// The index listed first: the highest rating, equal ratings in players' (name) order.
function topOf(ratings: Float64Array): number {
  let top = 0;
  for (let i = 1; i < ratings.length; i++) {
    if ((ratings[i] ?? 0) > (ratings[top] ?? 0) + RATING_EPSILON) top = i;
  }
  return top;
}

function pairingsOf(debates: readonly RatedDebate[], playerCount: number): Pairing[] {
  const byKey = new Map<number, Pairing>();
  const sorted = [...debates].sort((x, y) => (x.runId < y.runId ? -1 : x.runId > y.runId ? 1 : 0));
  for (const debate of sorted) {
    if (debate.first === debate.second) continue;
    const a = Math.min(debate.first, debate.second);
    const b = Math.max(debate.first, debate.second);
    const key = a * playerCount + b;
    let pairing = byKey.get(key);
    if (!pairing) {
      pairing = { a, b, games: 0, aWins: [], bWins: [], ties: [] };
      byKey.set(key, pairing);
    }
    pairing.games += 1;
    const aScore = debate.first === a ? debate.score : 1 - debate.score;
    if (aScore === 1) pairing.aWins.push(debate);
    else if (aScore === 0) pairing.bWins.push(debate);
    else pairing.ties.push(debate);
  }
  return [...byKey.entries()].sort(([x], [y]) => x - y).map(([, pairing]) => pairing);
}

// The fewest debates that move `halves` half-points from a to b (negative: from b to a): flipped
// wins first (two half-points each), then decided ties; infinite when the pairing has too few.
function pairingCost(pairing: Pairing, halves: number): number {
  if (halves === 0) return 0;
  const wins = halves > 0 ? pairing.aWins.length : pairing.bWins.length;
  const needed = Math.abs(halves);
  const flipped = Math.min(Math.floor(needed / 2), wins);
  const rest = needed - 2 * flipped;
  return rest <= pairing.ties.length ? flipped + rest : Number.POSITIVE_INFINITY;
}

function changesFor(pairing: Pairing, halves: number): OutcomeChange[] {
  if (halves === 0) return [];
  const loser = halves > 0 ? pairing.a : pairing.b;
  const wins = halves > 0 ? pairing.aWins : pairing.bWins;
  const needed = Math.abs(halves);
  const flipped = Math.min(Math.floor(needed / 2), wins.length);
  const chosen = [...wins.slice(0, flipped), ...pairing.ties.slice(0, needed - 2 * flipped)];
  // Each chosen debate becomes a win for the other model of the pairing.
  return chosen.map((debate) => ({
    runId: debate.runId,
    score: debate.score,
    changedTo: debate.first === loser ? 0 : 1,
  }));
}
