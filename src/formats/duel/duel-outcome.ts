/**
 * Who won a duel and why, in one plain sentence: the debater who took more of the judged rounds
 * ("Blaise won 2 rounds to 0"), or a draw. A run that did not reach its end names no winner.
 */
import { plural } from '../../core/plural.js';
import { endedEarly, stopReasonText } from '../../core/stop-reason-text.js';
import {
  degradedNote,
  type RunEnding,
  reachedEnd,
  roundsProgress,
  unfinishedSentence,
} from '../shared/run-ending.js';

interface DuelRecord extends RunEnding {
  debaters?: { a?: { name?: string }; b?: { name?: string } };
  positions?: { a?: string; b?: string };
  stats?: { roundsWon?: { a: number; b: number; even: number } };
  rounds?: Array<{ judgement?: { abstained?: boolean } | null }>;
  plannedRounds?: number;
}

/** "Blaise leads 2 rounds to 1", "level at 1 round each"; '' before any round was judged. */
function standing(a: string, b: string, won: { a: number; b: number }, verb: 'leads' | 'won'): string {
  if (won.a === won.b) {
    if (won.a === 0) return '';
    return verb === 'won'
      ? `${a} and ${b} won ${plural(won.a, 'round')} each`
      : `level at ${plural(won.a, 'round')} each`;
  }
  const [leader, more, fewer] = won.a > won.b ? [a, won.a, won.b] : [b, won.b, won.a];
  return `${leader} ${verb} ${plural(more, 'round')} to ${fewer}`;
}

/** The sentence from a duel's transcript.json. */
export function duelOutcome(transcript: unknown): string {
  const record = (transcript ?? {}) as DuelRecord;
  const a = record.debaters?.a?.name ?? 'Debater A';
  const b = record.debaters?.b?.name ?? 'Debater B';
  const won = record.stats?.roundsWon ?? { a: 0, b: 0, even: 0 };
  const judged = (record.rounds ?? []).filter((round) => round.judgement).length;
  const progress = roundsProgress(judged, record.plannedRounds);
  const unfinished = unfinishedSentence(record, progress, standing(a, b, won, 'leads'));
  if (unfinished !== null) return unfinished;
  const side = (name: string, position: string | undefined) => (position ? `${name} (${position})` : name);
  const even = won.even > 0 ? `, with ${plural(won.even, 'round')} even` : '';
  const result =
    won.a === won.b
      ? won.a === 0
        ? `No debater won a round${won.even > 0 ? ` (${plural(won.even, 'round')} even)` : ''}, so the duel is a draw`
        : `${standing(a, b, won, 'won')}${even}, so the duel is a draw`
      : won.a > won.b
        ? `${side(a, record.positions?.a)} won ${plural(won.a, 'round')} to ${won.b}${even}`
        : `${side(b, record.positions?.b)} won ${plural(won.b, 'round')} to ${won.a}${even}`;
  const unjudged = (record.rounds ?? []).filter((round) => round.judgement?.abstained).length;
  const voidNote = unjudged > 0 ? `; the judge gave no usable verdict in ${plural(unjudged, 'round')}` : '';
  const early =
    reachedEnd(record) && endedEarly(record.stopReason)
      ? ` (${stopReasonText(record.stopReason)}, so it ended ${progress})`
      : '';
  return `${result}${voidNote}${early}${degradedNote(record)}.`;
}
