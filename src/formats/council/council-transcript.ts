/** The council's record: transcript.json, transcript.md, the failed steps and the end-of-run report. */
import { clampedText } from '../../core/clamped-text.js';
import { clipText, type TextLayout } from '../../core/text-layout.js';
import { textTable } from '../../render/text-table.js';
import { fallbackNote } from '../shared/fallback-note.js';
import { modelCalls, sequenceFailures } from '../shared/sequence-state.js';
import { packetMarkdown, roundFile } from './council-artifacts.js';
import { budgetLine, recordedBudget } from './council-budget.js';
import { councilOutcome } from './council-outcome.js';
import type { CouncilState } from './council-prompts.js';
import { budgetCut, councilStateName } from './council-states.js';

/** How much of a role's claim a report row shows. */
const CLAIM_CHARS = 90;

export function councilTranscript(state: CouncilState) {
  const { scenario } = state;
  const packet = state.artifacts.find((artifact) => artifact.name === 'final-packet')?.data ?? null;
  return {
    runId: state.runId,
    format: 'council' as const,
    problem: scenario.topic,
    seed: scenario.seed,
    state: councilStateName(state),
    status: state.end?.status ?? ('running' as const),
    stopReason: state.end?.stopReason ?? null,
    error: state.end?.error ?? null,
    participants: scenario.participants,
    rounds: [1, 2, 3].map((round) => roundFile(state, round)),
    consensus: state.artifacts.find((artifact) => artifact.name === 'consensus')?.data ?? null,
    decision: (() => {
      const decision = state.assessments.find((item) => item.phase === 'decision');
      if (!decision) return null;
      const { seq: _seq, at: _at, type: _type, promptChars: _chars, ...rest } = decision;
      return rest;
    })(),
    finalPacket: packet,
    note:
      (state.artifacts.find((artifact) => artifact.name === 'writeback')?.data.note as string | undefined) ??
      null,
    degraded: state.assessments
      .filter((item) => item.abstained)
      .map((item) => ({ role: item.judge, phase: item.phase, reason: item.reason ?? '' })),
    totals: { modelCalls: modelCalls(state), outputTokens: state.outputTokens },
    // What the council was allowed and used: budget.json's record, or the use so far before it.
    budget: recordedBudget(state, councilStateName(state)),
  };
}

/** Failed roles, and the states the budget cut. */
export function councilFailures(state: CouncilState): string[] {
  const cut = budgetCut(state);
  return [
    ...sequenceFailures(state),
    ...(cut ? [`states cut by the budget: ${cut.states.join(', ')} (${cut.reason})`] : []),
  ];
}

/** How the council came out, in one sentence, as the report, the transcript and the lists of runs say it. */
export function councilResult(state: CouncilState): string {
  return councilOutcome({ ...councilTranscript(state), failedSteps: councilFailures(state).length });
}

/** The answers a fallback model gave in place of a role's own model, one line each. */
function fallbackLines(state: CouncilState): string[] {
  return state.assessments
    .filter((item) => item.fallbackFrom)
    .map((item) => `- ${item.judge}, ${item.phase}: ${fallbackNote(item, 'answered')}`);
}

/** The answers whose numbers were held to their bounds, one line each. */
function clampedLines(state: CouncilState): string[] {
  return state.assessments
    .filter((item) => item.clamped && item.clamped.length > 0)
    .map((item) => `- ${item.judge}, ${item.phase}: ${clampedText(item.clamped ?? [])}`);
}

/** transcript.md: the result, then the Final Packet as final-packet.md has it, then any fallbacks. */
export function councilMarkdown(state: CouncilState): string {
  const packet = state.artifacts.find((artifact) => artifact.name === 'final-packet')?.data;
  const result = `**Result:** ${councilResult(state)}\n\n${budgetLine(recordedBudget(state, councilStateName(state)))}`;
  const fallbacks = fallbackLines(state);
  const clamped = clampedLines(state);
  const fallbackSection = [
    ...(fallbacks.length > 0 ? ['## Fallback models', '', ...fallbacks, ''] : []),
    ...(clamped.length > 0
      ? [
          '## Numbers held to their bounds',
          '',
          'Outside the bounds the answer allows; the answer was used with the bound.',
          '',
          ...clamped,
          '',
        ]
      : []),
  ];
  if (!packet) {
    return [
      `# ${state.scenario.topic}`,
      '',
      result,
      '',
      `The council is at the ${councilStateName(state)} state.`,
      '',
      ...fallbackSection,
    ].join('\n');
  }
  const [title = '', ...rest] = packetMarkdown(packet as never).split('\n');
  return [title, '', result, ...rest, ...fallbackSection].join('\n');
}

export function councilReport(state: CouncilState, layout?: TextLayout): string {
  const transcript = councilTranscript(state);
  const table = textTable(['Round', 'Role', 'Model', 'Claim'], layout);
  for (const round of transcript.rounds) {
    for (const output of round.outputs as Array<Record<string, unknown>>) {
      table.push([
        round.round,
        String(output.role),
        output.fallback_from
          ? `${output.model} (fallback for ${output.fallback_from})`
          : String(output.model),
        output.abstained ? `(failed: ${output.reason})` : clipText(String(output.claim ?? ''), CLAIM_CHARS),
      ]);
    }
  }
  const clamped = clampedLines(state);
  const held =
    clamped.length > 0
      ? `\nNumbers held to their bounds (the answers were used with the bound):\n${clamped.join('\n')}`
      : '';
  return `${councilResult(state)}\n${budgetLine(transcript.budget)}\n\n${table.toString()}${held}${transcript.note ? `\nDecision record: ${transcript.note}` : ''}`;
}
