/**
 * The parts of a who-won sentence that every format shares: how far a run got, what a run that
 * did not reach its end says instead of a winner, and the note a degraded result carries. Read
 * from a run's record (transcript.json), so lists and pages can say the same as the report.
 */
import { plural } from '../../core/plural.js';
import { stopReasonText } from '../../core/stop-reason-text.js';

/** What every format's transcript.json says about how its run ended. */
export interface RunEnding {
  status?: string;
  stopReason?: string | null;
  error?: string | null;
  /** Failed steps that stand in the record (transcript.json; absent in a format's own transcript). */
  failedSteps?: number;
}

/** "after round 2 of 6", "before its first round ended"; the total is left out when unknown. */
export function roundsProgress(done: number, planned: number | undefined, noun = 'round'): string {
  if (done === 0) return `before its first ${noun} ended`;
  return `after ${noun} ${done}${planned ? ` of ${planned}` : ''}`;
}

/** Whether the run reached its end (completed or degraded), so a result can be named. */
export function reachedEnd(ending: RunEnding): boolean {
  return ending.status === 'completed' || ending.status === 'degraded';
}

/**
 * The sentence for a run that has not reached its end: still running, stopped or failed, with
 * where it got to and, when there is one, the standing so far; null for a run that reached its end.
 */
export function unfinishedSentence(
  ending: RunEnding,
  progress: string,
  soFar = '',
  noResult = 'there is no winner',
): string | null {
  const standing = soFar === '' ? '' : `; so far ${soFar}`;
  switch (ending.status) {
    case 'completed':
    case 'degraded':
      return null;
    case 'stopped':
      return `Stopped ${progress}, before the end, so ${noResult}${standing}; resume it to finish (\`agora resume\`).`;
    case 'failed': {
      const why = ending.error || stopReasonText(ending.stopReason) || 'a step failed';
      return `Failed ${progress}, so ${noResult}${standing}. Why: ${withStop(why)}`;
    }
    default:
      return `Still running, ${progress}: no result yet${standing}.`;
  }
}

/** The note a result decided partly by failures carries; empty for a clean one. */
export function degradedNote(ending: RunEnding): string {
  if (ending.status !== 'degraded') return '';
  const count = ending.failedSteps;
  if (!count) return ' (degraded: failed steps stand in its record and decided part of it)';
  return ` (degraded: ${plural(count, 'failed step')} ${count === 1 ? 'stands' : 'stand'} in its record and decided part of it)`;
}

/** `text` ending in a full stop. */
export function withStop(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
