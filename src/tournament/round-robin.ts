/**
 * The round-robin plan of a tournament: every pair of models on every motion, each pairing debated
 * twice with the sides swapped. Pure: the same models and motions give the same plan.
 */

/** One debate to run: the model on the first side, the model on the second, and the motion. */
export interface ScheduledDebate {
  first: string;
  second: string;
  /** The motion's id within the tournament. */
  motionId: string;
}

/** The unordered pair and motion a debate belongs to: the two debates of a pairing share it. */
export function pairingKey(debate: ScheduledDebate): string {
  const [low, high] =
    debate.first < debate.second ? [debate.first, debate.second] : [debate.second, debate.first];
  return JSON.stringify([low, high, debate.motionId]);
}

/**
 * Motion by motion (in the order given), pair by pair (models in the order given, each with every
 * later one), the two side orders of a pairing next to each other: a round-robin stopped part way
 * has still met every pair on the motions it covered.
 */
export function roundRobinPlan(models: readonly string[], motionIds: readonly string[]): ScheduledDebate[] {
  const distinct = [...new Set(models)];
  const plan: ScheduledDebate[] = [];
  for (const motionId of new Set(motionIds)) {
    for (let i = 0; i < distinct.length; i++) {
      for (let j = i + 1; j < distinct.length; j++) {
        const a = distinct[i] as string;
        const b = distinct[j] as string;
        plan.push({ first: a, second: b, motionId }, { first: b, second: a, motionId });
      }
    }
  }
  return plan;
}

/** How many debates the round-robin of these models and motions holds: n(n − 1) per motion. */
export function roundRobinSize(modelCount: number, motionCount: number): number {
  return modelCount * (modelCount - 1) * motionCount;
}
