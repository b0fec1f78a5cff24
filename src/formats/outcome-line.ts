/**
 * Who won and why, in one plain sentence, for every format, read from a run's record
 * (transcript.json, or what `format.transcript(state)` returns). The terminal report and the
 * Markdown transcript of each format say it; lists of runs, the run index, the viewer and batch
 * tables call the same function, so every place says the same thing about a run.
 */
import { clipText } from '../core/text-layout.js';
import { councilOutcome } from './council/council-outcome.js';
import { critiqueOutcome } from './critique/critique-outcome.js';
import { duelOutcome } from './duel/duel-outcome.js';
import { formalOutcome } from './formal/formal-outcome.js';
import { knockoutOutcome } from './knockout/knockout-outcome.js';
import { truthOutcome } from './truth/truth-report.js';

const SENTENCES: Record<string, (transcript: unknown) => string> = {
  knockout: knockoutOutcome,
  duel: duelOutcome,
  formal: formalOutcome,
  critique: critiqueOutcome,
  council: councilOutcome,
  truth: truthOutcome,
};

/**
 * One sentence: who won and why (knockout, duel, formal), what the judge synthesised (critique),
 * what the council decided; or, for a run that did not reach its end, how far it got and that it
 * has no result. `transcript` is the run's transcript.json; its `failedSteps`, when present, are
 * counted in the sentence of a degraded run.
 */
export function whoWon(format: string, transcript: unknown): string {
  const sentence = Object.hasOwn(SENTENCES, format) ? SENTENCES[format] : undefined;
  return sentence ? sentence(transcript) : `A ${format} run; this version of Agora cannot read its result.`;
}

/** Longest outcome kept for a list of runs (the run index's `outcome` column). */
const LONGEST = 240;

/** `whoWon` for lists of runs, at most a few lines long; null while the run is still going. */
export function outcomeLine(format: string, transcript: unknown): string | null {
  const status = (transcript as { status?: unknown } | null | undefined)?.status;
  if (status === undefined || status === 'running') return null;
  return clipText(whoWon(format, transcript), LONGEST);
}
