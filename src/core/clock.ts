/** Time is injected so tests can fix it; the engine never calls `Date.now()` directly for records. */
export interface Clock {
  now(): Date;
  /** Monotonic milliseconds, for measuring durations. */
  monotonicMs(): number;
}

export const systemClock: Clock = {
  now: () => new Date(),
  monotonicMs: () => performance.now(),
};
