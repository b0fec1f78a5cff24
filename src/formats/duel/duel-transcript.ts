/** The duel's debate so far as its prompts show it: rounds verbatim, or condensed to what the Judge summarised. */
import { type TranscriptRound, transcriptText } from '../../agents/prompts.js';
import type { DuelScenario } from '../../config/scenario.js';
import type { SequenceState } from '../shared/sequence-state.js';

type DuelState = SequenceState<DuelScenario>;
type Statement = DuelState['statements'][number];

/**
 * How a statement is labelled in the prompts: its side's position. The order the Judge's task
 * lists the sides in is the only thing the side-swapped reading changes, so it shares every
 * message but its task with the calls around it.
 */
export const promptLabel = (scenario: DuelScenario, side: string) =>
  `arguing for ${scenario.positions[side as 'a' | 'b']}`;

/** A statement as the transcript shows it: the speaker's name, its side's position, the text. */
export function statementEntry(scenario: DuelScenario, statement: Statement) {
  return { agent: statement.speaker, label: promptLabel(scenario, statement.side), text: statement.text };
}

/** What a condensed round shows when its judgement left no summary: each statement's opening sentences. */
function openingsOf(statements: readonly Statement[]): string {
  return statements
    .map((statement) => {
      const sentences = statement.text.trim().match(/[^.!?]+[.!?]+(\s|$)/g) ?? [statement.text.trim()];
      return `${statement.speaker} opened: ${sentences.slice(0, 2).join('').trim()}`;
    })
    .join(' ');
}

/**
 * One round of the transcript: its statements verbatim, or, condensed, the Judge's neutral summary
 * of it (the openings of its statements when the judgement left none). Only a condensed round shows
 * the Judge's words: no verdict enters a prompt (the Judge must not read its own earlier verdicts
 * as evidence). `include` picks the round's statements a prompt may show (those already spoken).
 */
export function roundView(
  state: DuelState,
  number: number,
  condensed: boolean,
  include: (statement: Statement) => boolean = () => true,
): TranscriptRound {
  const { scenario } = state;
  const statements = state.statements.filter((statement) => statement.round === number && include(statement));
  if (!condensed) {
    return { number, statements: statements.map((statement) => statementEntry(scenario, statement)) };
  }
  const verdict = state.assessments.find(
    (item) => item.phase === 'judgement' && item.round === number,
  )?.result;
  const summary = typeof verdict?.summary === 'string' ? verdict.summary.trim() : '';
  return {
    number,
    title: `Round ${number} (${summary ? "the Judge's summary" : 'the openings of its statements'})`,
    statements: [
      summary
        ? { agent: 'Judge', label: 'summary', text: summary }
        : { agent: 'Moderator', label: 'openings', text: openingsOf(statements) || '(nothing said)' },
    ],
  };
}

/**
 * The shared transcript. When it would not fit, the oldest rounds are given by the Judge's
 * summary of them instead of verbatim, oldest first, so the prompt stays inside the window: the
 * newest round is always verbatim, and the window fitter (which measures with the same rate) never
 * has to cut the rounds a judge must compare.
 */
export function transcriptFor(state: DuelState, upToRound: number, fits: (text: string) => boolean): string {
  const rounds = [...new Set(state.statements.map((statement) => statement.round))].filter(
    (round) => round <= upToRound,
  );
  let condensed = 0;
  for (;;) {
    const text = transcriptText({
      summaries: [],
      rounds: rounds.map((number, index) => roundView(state, number, index < condensed)),
    });
    if (fits(text) || condensed >= rounds.length - 1) return text;
    condensed += 1;
  }
}
