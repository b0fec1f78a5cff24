/**
 * The least time the simulated GPU (gpu-clock.ts) can be busy for a given amount of work: the
 * prompt tokens it reads afresh, at the prefill rate, and the tokens it writes, every decode step
 * serving as many sequences as a model has slots. The clock shares the GPU evenly and never idles
 * while it has work, so its busy time is the prefill time plus the cost of its decode steps (plus
 * any load that nothing else overlapped); a step of b sequences costs `1 + growth × (b - 1)` lone
 * steps, which per token is least at the largest batch. A batch benchmark compares what it measured
 * at once with this floor to tell how much of the gap the order of the calls could still close.
 */
import { DEFAULT_BATCH_STEP_GROWTH } from './gpu-clock.js';
import type { CostProfile } from './profiles.js';

export interface BusyWork {
  /** Prompt tokens read afresh (not from a slot's cache). */
  prefilled: number;
  /** Output tokens written. */
  decoded: number;
  /** The most sequences one decode step can serve: the slots per model (OLLAMA_NUM_PARALLEL). */
  slots: number;
}

/** Simulated seconds of GPU time `work` takes at least on `profile` (loads left out). */
export function busyFloorSeconds(profile: CostProfile, work: BusyWork): number {
  const slots = Math.max(1, Math.floor(work.slots));
  const growth = profile.batchStepGrowth ?? DEFAULT_BATCH_STEP_GROWTH;
  const fullSteps = work.decoded / slots;
  const decodeSeconds = (fullSteps * (1 + growth * (slots - 1))) / profile.decodeTokensPerSecond;
  return work.prefilled / profile.prefillTokensPerSecond + decodeSeconds;
}
