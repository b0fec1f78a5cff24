/**
 * Bradley-Terry with covariates (Chatbot Arena's style control): a logistic model of each debate's
 * result for its first side, log-odds = θ_first − θ_second + β·x, where x holds the first side's
 * style minus the second side's. The model strengths θ carry the same prior as the plain fit (one
 * virtual tie per model against a fixed opponent of strength 1, bradley-terry-fit.ts), so with
 * β = 0 both fits maximise the same objective; β gets a ridge of the weight of one virtual tied
 * debate, which keeps it finite when a style feature separates wins from losses outright. Fitted by
 * Newton's method with step halving; ties count as half a win (a result of 0.5).
 */
import { PRIOR_TIES } from './bradley-terry-fit.js';
import { choleskyFactor, choleskySolve, type SquareMatrix } from './symmetric-solve.js';

/** One rated debate: model indices, the first side's result (1, 0.5, 0) and its style differences. */
export interface CovariateGame {
  first: number;
  second: number;
  /** The first side's result; with a weight, the mean result of that many games. */
  score: number;
  covariates: ArrayLike<number>;
  /** How many games the row stands for (games of one pairing added up). Default 1. */
  weight?: number;
}

/** Natural-log model strengths and the covariates' coefficients (log-odds per unit). */
export interface CovariateFit {
  logStrengths: Float64Array;
  coefficients: Float64Array;
}

// The curvature of one virtual tie at zero (p(1 - p) at p = 1/2): a ridge as strong as one such debate.
const COVARIATE_RIDGE = 0.25;
const MAX_ITERATIONS = 200;
const TOLERANCE = 1e-10;

// The games in flat arrays, read many times per fit.
interface Design {
  rows: number;
  players: number;
  covariates: number;
  first: Int32Array;
  second: Int32Array;
  score: Float64Array;
  weight: Float64Array;
  x: Float64Array;
}

function designOf(games: readonly CovariateGame[], players: number, covariates: number): Design {
  const rows = games.length;
  const design: Design = {
    rows,
    players,
    covariates,
    first: new Int32Array(rows),
    second: new Int32Array(rows),
    score: new Float64Array(rows),
    weight: new Float64Array(rows),
    x: new Float64Array(rows * covariates),
  };
  games.forEach((game, row) => {
    design.first[row] = game.first;
    design.second[row] = game.second;
    design.score[row] = game.score;
    design.weight[row] = game.weight ?? 1;
    for (let c = 0; c < covariates; c++) design.x[row * covariates + c] = game.covariates[c] ?? 0;
  });
  return design;
}

/** The maximum a posteriori fit, optionally started from `start` (a nearby fit, e.g. the full data's). */
export function fitStyleControlled(
  games: readonly CovariateGame[],
  playerCount: number,
  covariateCount: number,
  start?: CovariateFit,
): CovariateFit {
  const design = designOf(games, playerCount, covariateCount);
  const size = playerCount + covariateCount;
  let parameters = new Float64Array(size);
  if (start !== undefined) {
    parameters.set(start.logStrengths.subarray(0, playerCount));
    parameters.set(start.coefficients.subarray(0, covariateCount), playerCount);
  }
  let value = objective(design, parameters);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const { gradient, information } = derivatives(design, parameters);
    const lower = choleskyFactor(information);
    // The prior and the ridge make the information positive definite; this guards rounding only.
    if (lower === null) break;
    const step = choleskySolve(lower, gradient);
    let largest = 0;
    for (const change of step) largest = Math.max(largest, Math.abs(change));
    if (largest < TOLERANCE) break;
    let scale = 1;
    let moved = false;
    for (let halving = 0; halving < 40; halving++) {
      const trial = parameters.map((parameter, at) => parameter + scale * (step[at] ?? 0));
      const trialValue = objective(design, trial);
      if (trialValue >= value - 1e-12 * Math.abs(value)) {
        parameters = trial;
        value = trialValue;
        moved = true;
        break;
      }
      scale /= 2;
    }
    if (!moved || largest * scale < TOLERANCE) break;
  }
  return {
    logStrengths: parameters.slice(0, playerCount),
    coefficients: parameters.slice(playerCount),
  };
}

// log(1 + e^x) without overflow.
function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

function linearPredictor(design: Design, row: number, parameters: Float64Array): number {
  let eta = (parameters[design.first[row] ?? 0] ?? 0) - (parameters[design.second[row] ?? 0] ?? 0);
  const base = row * design.covariates;
  for (let c = 0; c < design.covariates; c++) {
    eta += (parameters[design.players + c] ?? 0) * (design.x[base + c] ?? 0);
  }
  return eta;
}

// Log-likelihood plus the strengths' prior and the coefficients' ridge, up to a constant.
function objective(design: Design, parameters: Float64Array): number {
  let value = 0;
  for (let row = 0; row < design.rows; row++) {
    const eta = linearPredictor(design, row, parameters);
    value += (design.weight[row] ?? 1) * ((design.score[row] ?? 0) * eta - softplus(eta));
  }
  for (let i = 0; i < design.players; i++) {
    const theta = parameters[i] ?? 0;
    value += PRIOR_TIES * (theta / 2 - softplus(theta));
  }
  for (let c = 0; c < design.covariates; c++) {
    value -= (COVARIATE_RIDGE / 2) * (parameters[design.players + c] ?? 0) ** 2;
  }
  return value;
}

// The objective's gradient and its negated Hessian (the observed information).
function derivatives(
  design: Design,
  parameters: Float64Array,
): { gradient: Float64Array; information: SquareMatrix } {
  const { players, covariates } = design;
  const size = players + covariates;
  const gradient = new Float64Array(size);
  const information = Array.from({ length: size }, () => new Float64Array(size));
  for (let row = 0; row < design.rows; row++) {
    const i = design.first[row] ?? 0;
    const j = design.second[row] ?? 0;
    const count = design.weight[row] ?? 1;
    const p = 1 / (1 + Math.exp(-linearPredictor(design, row, parameters)));
    const residual = count * ((design.score[row] ?? 0) - p);
    const weight = count * p * (1 - p);
    // The row of the design matrix: +1 for the first side, -1 for the second, then the covariates.
    const rowI = information[i] as Float64Array;
    const rowJ = information[j] as Float64Array;
    gradient[i] = (gradient[i] ?? 0) + residual;
    gradient[j] = (gradient[j] ?? 0) - residual;
    rowI[i] = (rowI[i] ?? 0) + weight;
    rowJ[j] = (rowJ[j] ?? 0) + weight;
    rowI[j] = (rowI[j] ?? 0) - weight;
    rowJ[i] = (rowJ[i] ?? 0) - weight;
    const base = row * covariates;
    for (let c = 0; c < covariates; c++) {
      const at = players + c;
      const xc = design.x[base + c] ?? 0;
      gradient[at] = (gradient[at] ?? 0) + residual * xc;
      const rowC = information[at] as Float64Array;
      rowI[at] = (rowI[at] ?? 0) + weight * xc;
      rowC[i] = (rowC[i] ?? 0) + weight * xc;
      rowJ[at] = (rowJ[at] ?? 0) - weight * xc;
      rowC[j] = (rowC[j] ?? 0) - weight * xc;
      for (let d = 0; d < covariates; d++) {
        rowC[players + d] = (rowC[players + d] ?? 0) + weight * xc * (design.x[base + d] ?? 0);
      }
    }
  }
  for (let i = 0; i < players; i++) {
    const p = 1 / (1 + Math.exp(-(parameters[i] ?? 0)));
    gradient[i] = (gradient[i] ?? 0) + PRIOR_TIES * (0.5 - p);
    const row = information[i] as Float64Array;
    row[i] = (row[i] ?? 0) + PRIOR_TIES * p * (1 - p);
  }
  for (let c = 0; c < covariates; c++) {
    const at = players + c;
    gradient[at] = (gradient[at] ?? 0) - COVARIATE_RIDGE * (parameters[at] ?? 0);
    const row = information[at] as Float64Array;
    row[at] = (row[at] ?? 0) + COVARIATE_RIDGE;
  }
  return { gradient, information };
}
