/**
 * Who debates next after a vote (SRS 2.5): on a rotate decision, a judge who has not debated yet is
 * picked by seeded choice; the outgoing debater joins the judges; each Y debates at most once; at
 * most `limit` rotations; with nobody eligible the current debater goes on.
 */
import type { Decision, RoundEndEvent } from '../core/events.js';
import { seededPick } from './seeded-random.js';

export interface RotationInput {
  decision: Decision;
  /** False after the final round: a rotate vote is recorded, but nobody comes in. */
  roundsRemain: boolean;
  round: number;
  current: string;
  /** All Position Y agents, in scenario order. */
  yAgents: readonly string[];
  /** Y agents that have debated (the current one included). */
  debated: ReadonlySet<string>;
  rotationsSoFar: number;
  limit: number;
  seed: number;
}

export function decideRotation(input: RotationInput): Pick<RoundEndEvent, 'outcome' | 'rotation'> {
  if (input.decision === 'continue') return { outcome: 'continue', rotation: null };
  if (!input.roundsRemain) return { outcome: 'debate-over', rotation: null };
  if (input.rotationsSoFar >= input.limit) return { outcome: 'rotation-limit-reached', rotation: null };
  const eligible = input.yAgents.filter((name) => name !== input.current && !input.debated.has(name));
  const next = seededPick(eligible, input.seed, `rotation:round-${input.round}`);
  if (next === undefined) return { outcome: 'nobody-eligible', rotation: null };
  return { outcome: 'rotation', rotation: { from: input.current, to: next } };
}
