/**
 * The council's fixed states (seed 003 §3) and the pure planner over them: Intake → Round1 →
 * Round2 → Round3 → Consensus → Judge → Packetize → Writeback, never looping. A role that fails is
 * recorded and the council goes on (§3: failures degrade the run, they never end it unseen); a
 * budget that runs out cuts the remaining model states, and the free states still run.
 */

import { checkBudget, limitsOf } from '../../core/stop-conditions.js';
import type { DoneStep } from '../format-definition.js';
import { type CouncilState, DEBATING_ROLES, type DebatingRole } from './council-prompts.js';

export const COUNCIL_STATES = [
  'Intake',
  'Round1',
  'Round2',
  'Round3',
  'Consensus',
  'Judge',
  'Packetize',
  'Writeback',
] as const;

export type CouncilStep =
  | { kind: 'intake' }
  | { kind: 'round'; round: 1 | 2 | 3; roles: DebatingRole[] }
  | { kind: 'cut'; reason: string; states: string[] }
  | { kind: 'consensus' }
  | { kind: 'judge' }
  | { kind: 'budget' }
  | { kind: 'packetize' }
  | { kind: 'writeback' };

const has = (state: CouncilState, name: string) => state.artifacts.some((artifact) => artifact.name === name);

/** The state the council is in (its next state, or Done). */
export function councilStateName(state: CouncilState): string {
  const step = nextCouncilStep(state);
  if (step.kind === 'done') return 'Done';
  if (step.kind === 'round') return `Round${step.round}`;
  if (step.kind === 'cut') return step.states[0] ?? 'Consensus';
  // The budget's record is the first part of Packetize: it goes beside the Final Packet.
  if (step.kind === 'budget') return 'Packetize';
  return step.kind.charAt(0).toUpperCase() + step.kind.slice(1);
}

/** The budget cut, when the run's budget ran out before every state had its model calls. */
export function budgetCut(state: CouncilState): { reason: string; states: string[] } | null {
  const cut = state.artifacts.find((artifact) => artifact.name === 'budget-cut');
  return cut ? (cut.data as { reason: string; states: string[] }) : null;
}

/** The model states still to run (rounds with roles that have not answered, then the Judge). */
function pendingModelStates(state: CouncilState): Array<CouncilStep & { kind: 'round' | 'judge' }> {
  const pending: Array<CouncilStep & { kind: 'round' | 'judge' }> = [];
  for (const round of [1, 2, 3] as const) {
    const roles = DEBATING_ROLES.filter(
      (role) => !state.assessments.some((item) => item.phase === `round-${round}` && item.judge === role),
    );
    if (roles.length > 0) pending.push({ kind: 'round', round, roles });
  }
  if (!state.assessments.some((item) => item.phase === 'decision')) pending.push({ kind: 'judge' });
  return pending;
}

/**
 * The council always passes its eight states. A role whose model keeps failing gives no answer,
 * recorded as such, in every state it has: however many fail in a row, the council goes on to a
 * consensus of the roles that answered, a packet that names the failures, and the writeback, and
 * ends degraded. (A missing model or an unreachable server still stops it, resumable, as every
 * format.) A budget that runs out cuts the remaining model states, recorded as such, and the free
 * states still compute the consensus, a packet that says what was cut, and the writeback. After
 * the last model call, the budget and what the run used are recorded (budget.json), then the packet.
 */
export function nextCouncilStep(state: CouncilState): CouncilStep | DoneStep {
  if (state.end) return { kind: 'done', status: state.end.status, stopReason: state.end.stopReason };
  const limits = limitsOf(state.scenario);
  if (!has(state, 'intake')) return { kind: 'intake' };
  const cut = budgetCut(state);
  const pending = cut ? [] : pendingModelStates(state);
  const budget = checkBudget(state, limits);
  if (budget && pending.length > 0) {
    const used =
      budget.stopReason === 'max_total_output_tokens'
        ? `${state.outputTokens} output tokens used of ${limits.maxTotalOutputTokens}`
        : `${Math.round(state.activeMs / 100) / 10} s active of ${limits.maxRuntimeSeconds} s`;
    return {
      kind: 'cut',
      reason: `${budget.stopReason} reached (${used})`,
      states: [...new Set(pending.map((step) => (step.kind === 'round' ? `Round${step.round}` : 'Judge')))],
    };
  }
  const rounds = pending.filter((step) => step.kind === 'round');
  if (rounds[0]) return rounds[0];
  if (!has(state, 'consensus')) return { kind: 'consensus' };
  if (pending.some((step) => step.kind === 'judge')) return { kind: 'judge' };
  // A run recorded before the budget record was kept has its packet and goes on without one.
  if (!has(state, 'final-packet') && !has(state, 'budget')) return { kind: 'budget' };
  if (!has(state, 'final-packet')) return { kind: 'packetize' };
  if (!has(state, 'writeback')) return { kind: 'writeback' };
  return { kind: 'done', status: 'completed', stopReason: 'finished' };
}
