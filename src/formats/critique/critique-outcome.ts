/**
 * How a critique-and-refine debate came out, in one plain sentence: nobody wins it; the judge
 * synthesises a solution from the experts' rounds, and the sentence says from what, how confident
 * it is and how it begins. A run that did not reach its end has no solution yet.
 */
import { plural } from '../../core/plural.js';
import { endedEarly, stopReasonText } from '../../core/stop-reason-text.js';
import { clipText } from '../../core/text-layout.js';
import { degradedNote, type RunEnding, roundsProgress, unfinishedSentence } from '../shared/run-ending.js';

interface CritiqueRecord extends RunEnding {
  agents?: Array<{ name?: string }>;
  judge?: { name?: string };
  rounds?: Array<{ refinements?: unknown[]; synthesis?: { reason?: string | null } | null }>;
  solution?: { confidence?: number | null; description?: unknown } | null;
  plannedRounds?: number;
}

/** How much of the solution's opening the sentence quotes. */
const OPENING_CHARS = 140;

/** "A", "A and B", "A, B and C". */
function names(items: string[]): string {
  if (items.length <= 1) return items[0] ?? 'the experts';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The sentence from a critique's transcript.json. */
export function critiqueOutcome(transcript: unknown): string {
  const record = (transcript ?? {}) as CritiqueRecord;
  const named = record.judge?.name;
  const judge = !named || named.toLowerCase() === 'judge' ? 'the judge' : named;
  const refined = (record.rounds ?? []).filter((round) => (round.refinements?.length ?? 0) > 0).length;
  const progress = roundsProgress(refined, record.plannedRounds);
  const unfinished = unfinishedSentence(record, progress, '', 'there is no solution yet');
  if (unfinished !== null) return unfinished;
  const degraded = degradedNote(record);
  const solution = record.solution;
  if (!solution) {
    const reason = [...(record.rounds ?? [])].reverse().find((round) => round.synthesis?.reason)
      ?.synthesis?.reason;
    return `No solution: ${judge} gave no usable synthesis${reason ? ` (${reason})` : ''}, so the debate ends without one${degraded}.`;
  }
  const experts = names((record.agents ?? []).map((agent) => agent.name ?? '').filter(Boolean));
  const confidence =
    typeof solution.confidence === 'number' ? ` with confidence ${solution.confidence}/100` : '';
  const early = endedEarly(record.stopReason)
    ? ` (${stopReasonText(record.stopReason)}, so it ended ${progress})`
    : '';
  const opening = String(solution.description ?? '')
    .trim()
    .split('\n')[0];
  const quoted = opening ? `: "${clipText(opening, OPENING_CHARS)}"` : '.';
  return `After ${plural(refined, 'round')} of proposals, critiques and refinements by ${experts}, ${judge} synthesised a solution${confidence}${early}${degraded}${quoted}`;
}
