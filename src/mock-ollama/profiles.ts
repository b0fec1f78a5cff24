/**
 * Cost profiles: how fast a simulated machine reads prompts and writes tokens, how long a model
 * takes to load, how many models fit in memory and how many requests each serves at once.
 */

/** A simulated machine. Rates are tokens per second; `parallel` is slots per loaded model. */
export interface CostProfile {
  name: string;
  prefillTokensPerSecond: number;
  decodeTokensPerSecond: number;
  loadSeconds: number;
  maxLoadedModels: number;
  /** Requests one loaded model serves at the same time, like OLLAMA_NUM_PARALLEL. */
  parallel: number;
  /**
   * Ollama's OLLAMA_MULTIUSER_CACHE: a request whose prompt departs from every free slot's memory
   * takes the least recently used slot and copies into it the longest prefix any slot shares with
   * the prompt, instead of overwriting the slot that shares most (see prompt-cache.ts). Off by
   * default, as in Ollama.
   */
  multiUserCache?: boolean;
  /**
   * How much longer one decode step gets per extra sequence decoded with it on the same model
   * (step of a batch of b = (1 + growth × (b - 1)) / decode rate); default 0.2 (see gpu-clock.ts).
   */
  batchStepGrowth?: number;
}

/** Names of the built-in profiles. */
export type ProfileName =
  | 'instant'
  | 'gpu'
  | 'gpu-small'
  | 'cpu'
  | 'desktop-gpu'
  | 'desktop-gpu-small'
  | 'desktop-cpu';

/** The built-in profiles. */
export const PROFILES: Readonly<Record<ProfileName, CostProfile>> = {
  // Durations stay non-zero (clients divide by them) but negligible.
  instant: {
    name: 'instant',
    prefillTokensPerSecond: 1e6,
    decodeTokensPerSecond: 1e6,
    loadSeconds: 0,
    maxLoadedModels: 4,
    parallel: 4,
  },
  gpu: {
    name: 'gpu',
    prefillTokensPerSecond: 4000,
    decodeTokensPerSecond: 110,
    loadSeconds: 5,
    maxLoadedModels: 2,
    parallel: 2,
  },
  'gpu-small': {
    name: 'gpu-small',
    prefillTokensPerSecond: 4000,
    decodeTokensPerSecond: 110,
    loadSeconds: 5,
    maxLoadedModels: 1,
    parallel: 2,
  },
  cpu: {
    name: 'cpu',
    prefillTokensPerSecond: 35,
    decodeTokensPerSecond: 7,
    loadSeconds: 10,
    maxLoadedModels: 1,
    parallel: 1,
  },
  // A desktop running 8B models with Ollama's defaults: one request at a time per model.
  'desktop-gpu': {
    name: 'desktop-gpu',
    prefillTokensPerSecond: 5000,
    decodeTokensPerSecond: 110,
    loadSeconds: 5,
    maxLoadedModels: 2,
    parallel: 1,
  },
  // The same GPU with room for one model: every switch of model is a load.
  'desktop-gpu-small': {
    name: 'desktop-gpu-small',
    prefillTokensPerSecond: 5000,
    decodeTokensPerSecond: 110,
    loadSeconds: 5,
    maxLoadedModels: 1,
    parallel: 1,
  },
  // The same desktop without the GPU: both models in system memory, read and written by the CPU.
  'desktop-cpu': {
    name: 'desktop-cpu',
    prefillTokensPerSecond: 60,
    decodeTokensPerSecond: 8,
    loadSeconds: 5,
    maxLoadedModels: 2,
    parallel: 1,
  },
};

/** Returns the named profile, or checks a custom one; throws on unknown names or bad numbers. */
export function resolveProfile(profile: ProfileName | CostProfile | undefined): CostProfile {
  if (profile === undefined) return PROFILES.instant;
  if (typeof profile === 'string') {
    const found = (PROFILES as Record<string, CostProfile | undefined>)[profile];
    if (found === undefined) {
      throw new Error(
        `unknown mock profile "${profile}" (expected one of: ${Object.keys(PROFILES).join(', ')})`,
      );
    }
    return found;
  }
  const positive = ['prefillTokensPerSecond', 'decodeTokensPerSecond'] as const;
  for (const key of positive) {
    if (!(profile[key] > 0)) throw new Error(`mock profile "${profile.name}": ${key} must be > 0`);
  }
  if (!(profile.loadSeconds >= 0)) {
    throw new Error(`mock profile "${profile.name}": loadSeconds must be >= 0`);
  }
  if (profile.batchStepGrowth !== undefined && !(profile.batchStepGrowth >= 0)) {
    throw new Error(`mock profile "${profile.name}": batchStepGrowth must be >= 0`);
  }
  for (const key of ['maxLoadedModels', 'parallel'] as const) {
    if (!Number.isInteger(profile[key]) || profile[key] < 1) {
      throw new Error(`mock profile "${profile.name}": ${key} must be a positive integer`);
    }
  }
  return { ...profile };
}

/** Simulated durations of one request, in seconds. */
export interface SimulatedTimes {
  loadSeconds: number;
  promptSeconds: number;
  evalSeconds: number;
  totalSeconds: number;
}

/** Simulated cost of evaluating `prefilled` prompt tokens and generating `output` tokens. */
export function simulateTimes(
  profile: CostProfile,
  work: { loaded: boolean; prefilled: number; output: number },
): SimulatedTimes {
  const loadSeconds = work.loaded ? profile.loadSeconds : 0;
  const promptSeconds = work.prefilled / profile.prefillTokensPerSecond;
  const evalSeconds = work.output / profile.decodeTokensPerSecond;
  return { loadSeconds, promptSeconds, evalSeconds, totalSeconds: loadSeconds + promptSeconds + evalSeconds };
}

/** Seconds to whole nanoseconds, as Ollama reports durations. */
export function toNanoseconds(seconds: number): number {
  return Math.round(seconds * 1e9);
}
