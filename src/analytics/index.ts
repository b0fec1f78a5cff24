/** Dependency-free statistics for leaderboards and judge agreement. */
export { type AlphaMetric, fleissKappa, krippendorffAlpha, pairwiseAgreement } from './agreement.js';
export {
  type BradleyTerryOptions,
  bradleyTerry,
  type Match,
  type PlayerRating,
} from './bradley-terry.js';
export { normalQuantile, studentTCdf, studentTQuantile } from './distributions.js';
export { type MeanInterval, meanInterval, type ProportionInterval, proportionInterval } from './intervals.js';
