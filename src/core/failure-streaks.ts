/**
 * Failed steps in a row, counted per agent and per model. A dead model fails every step of every
 * agent that uses it while the other side keeps succeeding, so one run-wide counter that any
 * success resets would never trip; these counters reset only on the same agent's (or model's)
 * next success.
 */
export interface FailureStreaks {
  agents: Readonly<Record<string, number>>;
  models: Readonly<Record<string, number>>;
}

export const NO_FAILURES: FailureStreaks = { agents: {}, models: {} };

/**
 * The streaks after one step by `agent` on `model` succeeded or failed. Calls made side by side in
 * one step (three judges on one model) count once for their model: `sameStepFailedOnModel` says an
 * earlier call of the same step already failed on it.
 */
export function recordStep(
  streaks: FailureStreaks,
  agent: string,
  model: string,
  failed: boolean,
  sameStepFailedOnModel = false,
): FailureStreaks {
  const modelCount = failed ? (streaks.models[model] ?? 0) + (sameStepFailedOnModel ? 0 : 1) : 0;
  return {
    agents: { ...streaks.agents, [agent]: failed ? (streaks.agents[agent] ?? 0) + 1 : 0 },
    models: { ...streaks.models, [model]: modelCount },
  };
}

/** The longest streak, agents before models on equal counts; null when nothing has failed. */
export function longestStreak(
  streaks: FailureStreaks,
): { kind: 'agent' | 'model'; name: string; count: number } | null {
  let best: { kind: 'agent' | 'model'; name: string; count: number } | null = null;
  for (const kind of ['agent', 'model'] as const) {
    const counts = kind === 'agent' ? streaks.agents : streaks.models;
    for (const [name, count] of Object.entries(counts)) {
      if (count > 0 && (best === null || count > best.count)) best = { kind, name, count };
    }
  }
  return best;
}
