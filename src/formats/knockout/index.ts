/** The knockout challenge (seed 004) as a format the runner can drive. */
import { type FormatDefinition, runProgress } from '../../core/format.js';
import { executeKnockoutStep } from './executor.js';
import { nextKnockoutStep } from './planner.js';
import { agentTable, resultSummary, roundTable } from './report.js';
import { foldKnockout, type KnockoutState } from './state.js';
import type { KnockoutStep } from './steps.js';
import { knockoutTranscript } from './transcript.js';
import { knockoutMarkdown } from './transcript-markdown.js';

export const knockoutFormat: FormatDefinition<KnockoutState, KnockoutStep> = {
  name: 'knockout',
  fold: foldKnockout,
  next: nextKnockoutStep,
  execute: executeKnockoutStep,
  isFinished: (state) => state.end !== null,
  progress: (state) =>
    runProgress(
      'knockout',
      state,
      state.rounds.filter((round) => round.end).length,
      state.scenario.debate.rounds,
    ),
  transcript: knockoutTranscript,
  markdown: (state) => knockoutMarkdown(knockoutTranscript(state)),
  report: (state) => {
    const transcript = knockoutTranscript(state);
    return `${resultSummary(transcript)}\n${agentTable(transcript)}\n${roundTable(transcript)}`;
  },
  checkpoints: ['round-end'],
};
