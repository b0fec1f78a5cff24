/**
 * When the pieces of an answer go out: after the model is ready and the prompt is read, then each
 * piece when its tokens are written. Paced by the shared GPU clock, or (speed 0) not at all.
 */
import type { GpuClock, GpuJob } from './gpu-clock.js';
import { sleepUntil } from './http.js';

export interface Pace {
  /** False when nothing waits between pieces (speed 0). */
  readonly paced: boolean;
  /** Waits for the model to be loaded, then puts the request on the GPU; false if aborted. */
  begin(signal: AbortSignal): Promise<boolean>;
  /** Waits until `tokens` output tokens are written (0: the prompt is read); false if aborted. */
  reach(tokens: number, signal: AbortSignal): Promise<boolean>;
  /** Takes the request off the GPU. */
  end(): void;
}

/** A request on the shared GPU: `prefill` prompt tokens to read, `output` tokens to write. */
export function clockPace(
  clock: GpuClock,
  work: { model: string; readyAt: number; prefill: number; output: number; msPerSecond: number },
): Pace {
  let job: GpuJob | undefined;
  return {
    paced: work.msPerSecond > 0,
    begin: async (signal) => {
      if (!(await sleepUntil(work.readyAt, signal))) return false;
      job = clock.start(work.model, work.prefill, work.output);
      return true;
    },
    reach: (tokens, signal) => {
      if (work.msPerSecond <= 0) return Promise.resolve(!signal.aborted);
      return job === undefined ? Promise.resolve(false) : job.reach(tokens, signal);
    },
    end: () => job?.end(),
  };
}
