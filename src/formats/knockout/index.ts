/** The knockout challenge (seed 004) as a format the runner can drive. */
import { runProgress } from '../../core/run-progress.js';
import type { FormatDefinition } from '../format-definition.js';
import { executeKnockoutStep } from './executor.js';
import { personFeedback } from './person-feedback.js';
import { nextKnockoutStep } from './planner.js';
import { agentTable, resultSummary, roundTable } from './report.js';
import { foldKnockout, type KnockoutState, knockoutFailures } from './state.js';
import type { KnockoutStep } from './steps.js';
import { type KnockoutTranscript, knockoutTranscript } from './transcript.js';
import { knockoutMarkdown } from './transcript-markdown.js';

// transcript.json and transcript.md are written together from one state: the transcript built for
// the first is reused for the second. The state is immutable (the fold makes a new one per event).
const transcripts = new WeakMap<KnockoutState, KnockoutTranscript>();
function transcriptOf(state: KnockoutState): KnockoutTranscript {
  let transcript = transcripts.get(state);
  if (!transcript) {
    transcript = knockoutTranscript(state);
    transcripts.set(state, transcript);
  }
  return transcript;
}

export const knockoutFormat: FormatDefinition<KnockoutState, KnockoutStep> = {
  name: 'knockout',
  fold: foldKnockout,
  next: nextKnockoutStep,
  execute: executeKnockoutStep,
  isFinished: (state) => state.end !== null,
  failures: knockoutFailures,
  progress: (state) =>
    runProgress(
      'knockout',
      state,
      state.rounds.filter((round) => round.end).length,
      state.scenario.debate.rounds,
      knockoutFailures(state).length,
    ),
  transcript: transcriptOf,
  markdown: (state) => knockoutMarkdown(transcriptOf(state)),
  report: (state, layout) => {
    const transcript = knockoutTranscript(state);
    const feedback = personFeedback(state);
    return `${resultSummary(transcript)}\n\n${agentTable(transcript, layout)}\n\n${roundTable(transcript, layout)}${feedback ? `\n\n${feedback}` : ''}`;
  },
  checkpoints: ['round-end'],
};
