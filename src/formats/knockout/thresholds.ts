/** The SRS's performance target (section 6): a round should take at most 30 s of real time. */
export const SLOW_ROUND_MS = 30_000;
