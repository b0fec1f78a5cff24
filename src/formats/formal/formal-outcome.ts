/**
 * Who won a formal debate and why, in one plain sentence: the side the judge's verdict names, with
 * its weighted totals and the judge's reasons (on tied totals, that the judge's named winner
 * decided it); or, plainly, that there is no verdict and how to
 * get one. A run that did not reach its end names no winner.
 */
import { stopReasonText } from '../../core/stop-reason-text.js';
import { clipText } from '../../core/text-layout.js';
import {
  degradedNote,
  type RunEnding,
  roundsProgress,
  unfinishedSentence,
  withStop,
} from '../shared/run-ending.js';

type Side = 'affirmative' | 'negative';

interface FormalRecord extends RunEnding {
  positions?: Partial<Record<Side, string>>;
  sides?: Partial<Record<Side, { name?: string }>>;
  preparation?: unknown[];
  statements?: unknown[];
  verdict?: {
    abstained?: boolean;
    reason?: string | null;
    winner?: string;
    reasons?: string;
    totals?: Partial<Record<Side, number>>;
    side_swap?: {
      agreed?: boolean | null;
      picks?: Array<string | null>;
      answers?: Array<{ totals?: Partial<Record<Side, number>> } | null>;
    };
  } | null;
  /** Whether the scenario asked for a verdict; absent in transcripts written before it was recorded. */
  verdictEnabled?: boolean;
  plannedSpeeches?: number;
}

/** The longest stretch of the judge's reasons a sentence quotes. */
const REASONS_CHARS = 220;

/** The sentence from a formal debate's transcript.json. */
export function formalOutcome(transcript: unknown): string {
  const record = (transcript ?? {}) as FormalRecord;
  const spoken = (record.preparation?.length ?? 0) + (record.statements?.length ?? 0);
  const unfinished = unfinishedSentence(record, roundsProgress(spoken, record.plannedSpeeches, 'speech'));
  if (unfinished !== null) return unfinished;
  const name = (side: Side) => record.sides?.[side]?.name ?? side;
  const label = (side: Side) => (record.positions?.[side] ? `${side}: ${record.positions[side]}` : side);
  const verdict = record.verdict;
  const degraded = degradedNote(record);
  if (!verdict) {
    if (record.verdictEnabled && record.stopReason !== 'finished') {
      return `No verdict: ${stopReasonText(record.stopReason)} before the judge was asked, so the debate names no winner; raise the budget in the scenario's stop block and run it again to have one${degraded}.`;
    }
    return `No verdict: this debate was run without a judge, so it names no winner; to have one, set \`verdict: { enabled: true }\` in the scenario and run it again${degraded}.`;
  }
  if (verdict.abstained) {
    return `No verdict: the judge gave no usable answer (${verdict.reason ?? 'no usable answer'}), so the debate names no winner; run it again to have one${degraded}.`;
  }
  const reasons = verdict.reasons ? `: ${withStop(clipText(verdict.reasons, REASONS_CHARS))}` : '.';
  const total = (side: Side) => (verdict.totals?.[side] ?? 0).toFixed(2);
  const readings = verdict.side_swap?.answers ?? [];
  if (verdict.side_swap?.agreed === false && readings.length === 2) {
    // Each reading's totals favour its own pick; the tie is their disagreement, and no one-sided reason goes with it.
    const totals = readings
      .map((reading) => {
        const pair = reading?.totals;
        return `${(pair?.affirmative ?? 0).toFixed(2)} to ${(pair?.negative ?? 0).toFixed(2)}`;
      })
      .join(', then ');
    return `The judge's verdict is a tie: asked twice with the sides in swapped order, it picked ${verdict.side_swap.picks?.[0] ?? '?'} and then ${verdict.side_swap.picks?.[1] ?? '?'} (affirmative to negative on the weighted criteria: ${totals})${degraded}.`;
  }
  if (verdict.winner !== 'affirmative' && verdict.winner !== 'negative') {
    return `The judge's verdict is a tie (${total('affirmative')} to ${total('negative')} on the weighted criteria)${degraded}${reasons}`;
  }
  const winner: Side = verdict.winner;
  const loser: Side = winner === 'affirmative' ? 'negative' : 'affirmative';
  if (total(winner) === total(loser)) {
    return `${name(winner)} (${label(winner)}) wins the judge's verdict on the winner it named: ${tiedScores(verdict, winner)}${degraded}${reasons}`;
  }
  return `${name(winner)} (${label(winner)}) wins the judge's verdict, ${total(winner)} to ${total(loser)} on the weighted criteria${degraded}${reasons}`;
}

/**
 * What decided a verdict whose weighted totals tie as shown: the side the judge named, which the
 * engine keeps on equal totals; with side swap, what each reading gave, so a reader sees whether
 * the named side won on its numbers in the other order or on the judge's word both times.
 */
function tiedScores(verdict: NonNullable<FormalRecord['verdict']>, winner: Side): string {
  const pair = (totals: Partial<Record<Side, number>> | undefined) =>
    `${(totals?.affirmative ?? 0).toFixed(2)} to ${(totals?.negative ?? 0).toFixed(2)}`;
  const [first, second] = (verdict.side_swap?.answers ?? []).map((answer) => answer?.totals);
  if (first && second) {
    const tied = (totals: Partial<Record<Side, number>>) =>
      (totals.affirmative ?? 0).toFixed(2) === (totals.negative ?? 0).toFixed(2);
    return tied(second)
      ? `the weighted totals tie, ${pair(first)}, in both readings (the sides in swapped order), and it named ${winner} both times`
      : `the weighted totals tie, ${pair(first)}, in the first reading, and favour ${winner} in the second (the sides in swapped order), ${pair(second)}`;
  }
  return `the weighted totals tie, ${pair(verdict.totals)}, and it named ${winner}`;
}
