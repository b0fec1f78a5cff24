/**
 * What a judge decided, in words a spectator reads: who took a duel round, who won a formal debate
 * and by what weighted scores, what each council role said. Shared by the terminal and the viewer,
 * so both tell the same story from the same event.
 */
import type { Scenario } from '../config/scenario.js';
import type { AssessmentEvent } from '../core/events.js';
import { formalSides } from '../formats/formal/formal-plan.js';

type Result = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** "Round 2 to Ada (For)", "Round 2 even": a duel Judge's call on one round. */
export function duelRoundText(scenario: Scenario | undefined, round: number, result: Result): string {
  const side = result.stronger;
  if (side !== 'a' && side !== 'b') return `Round ${round} even`;
  if (scenario?.format !== 'duel') return `Round ${round} to side ${side.toUpperCase()}`;
  return `Round ${round} to ${scenario.debaters[side].name} (${scenario.positions[side]})`;
}

/** "Blaise (affirmative, Ban cars) wins; weighted scores: affirmative 2.40, negative 3.40". */
export function formalVerdictText(scenario: Scenario | undefined, result: Result): string {
  // A truth verdict names the answer the judge believes.
  if (typeof result.answer === 'string' && typeof result.confidence === 'number')
    return `believes Answer ${result.answer}, confidence ${result.confidence}%`;
  const winner = result.winner;
  const totals = result.totals as Record<string, unknown> | undefined;
  const score = (side: string) =>
    typeof totals?.[side] === 'number' ? (totals[side] as number).toFixed(2) : '–';
  // Side swap records a verdict whose two orders disagreed as a tie.
  if (winner === 'tie')
    return `a tie; weighted scores: affirmative ${score('affirmative')}, negative ${score('negative')}`;
  if (winner !== 'affirmative' && winner !== 'negative') return 'no winner given';
  let who: string = winner;
  if (scenario?.format === 'formal' && scenario.debaters?.length === 2) {
    who = `${formalSides(scenario)[winner].name} (${winner}, ${scenario.positions[winner]})`;
  }
  return `${who} wins; weighted scores: affirmative ${score('affirmative')}, negative ${score('negative')}`;
}

/** The headline of a council role's answer: its claim, its challenges (naming their targets) or its revision. */
export function councilAnswerText(event: AssessmentEvent): string {
  const result = event.result ?? {};
  if (event.phase === 'round-2') {
    const challenges = Array.isArray(result.challenges) ? (result.challenges as Result[]) : [];
    const listed = challenges.map((item) => `${text(item.target_role)}: ${text(item.challenge)}`);
    return listed.length > 0 ? listed.join(' | ') : text(result.claim);
  }
  if (event.phase === 'round-3') return text(result.revision) || text(result.claim);
  return text(result.claim);
}

/** "conditional, confidence 0.62": a council role's stance, when its round asks for one. */
export function councilStanceText(result: Result): string {
  const parts = [
    text(result.stance),
    typeof result.confidence === 'number' ? `confidence ${result.confidence.toFixed(2)}` : '',
  ].filter((part) => part !== '');
  return parts.join(', ');
}
