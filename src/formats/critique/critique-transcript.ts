/** A critique's record: transcript.json, transcript.md, the solution as text and the end-of-run report. */
import { promptSourceText } from '../../config/role-prompts.js';
import { clipText, type TextLayout, WIDE_LAYOUT } from '../../core/text-layout.js';
import { renderTextTable } from '../../render/text-table.js';
import { fallbackNote } from '../shared/fallback-note.js';
import { modelCalls, sequenceFailures } from '../shared/sequence-state.js';
import { critiqueOutcome } from './critique-outcome.js';
import type { CritiqueState } from './critique-prompts.js';

const syntheses = (state: CritiqueState) => state.assessments.filter((item) => item.phase === 'synthesis');
const contributions = (state: CritiqueState) =>
  state.statements.filter((statement) => statement.phase !== 'synthesis' && statement.phase !== 'digest');

const firstLine = (text: string) => clipText(text.trim().split('\n')[0] ?? '', 100);

/**
 * The latest solution: the latest synthesis with its fields, or, when its fields could not be had,
 * the judge's design on its own (the solution survives a failed summing-up).
 */
function latestSolution(state: CritiqueState): Record<string, unknown> | null {
  const designs = state.statements.filter(
    (statement) => statement.phase === 'synthesis' && !statement.degraded,
  );
  const synthesis = [...syntheses(state)].reverse().find((item) => item.result);
  const design = designs.at(-1);
  if (synthesis?.result && (!design || synthesis.round >= design.round)) return synthesis.result;
  if (!design) return null;
  return {
    description: design.text,
    trade_offs: [],
    recommendations: [],
    confidence: null,
    synthesized_by: state.scenario.judge.name,
  };
}

export function critiqueTranscript(state: CritiqueState) {
  const { scenario } = state;
  const contribution = (statement: CritiqueState['statements'][number]) => ({
    agent: statement.speaker,
    role: statement.side,
    model: statement.model,
    ...(statement.target ? { target: statement.target } : {}),
    text: statement.text,
    promptTokens: statement.promptTokens,
    outputTokens: statement.outputTokens,
    latencyMs: statement.realMs,
    ...(statement.degraded ? { degraded: true, failureReason: statement.failureReason ?? '' } : {}),
    ...(statement.fallbackFrom ? { fallbackFrom: statement.fallbackFrom } : {}),
  });
  const rounds = [...new Set(state.statements.map((statement) => statement.round))].map((number) => {
    const of = (phase: string) =>
      state.statements.filter((statement) => statement.round === number && statement.phase === phase);
    const synthesis = syntheses(state).find((item) => item.round === number);
    return {
      number,
      proposals: of('proposal').map(contribution),
      critiques: of('critique').map(contribution),
      refinements: of('refinement').map(contribution),
      // The judge's digests of each expert's work, written when the rounds outgrew its window.
      ...(of('digest').length > 0 ? { digests: of('digest').map(contribution) } : {}),
      synthesis: synthesis
        ? ({
            abstained: synthesis.abstained,
            reason: synthesis.reason ?? null,
            ...synthesis.result,
          } as Record<string, unknown>)
        : null,
    };
  });
  const solution = latestSolution(state);
  const calls = [...state.statements, ...state.assessments];
  return {
    runId: state.runId,
    format: 'critique' as const,
    title: scenario.title ?? null,
    problem: scenario.topic,
    seed: scenario.seed,
    agents: scenario.agents.map((agent) => ({
      name: agent.name,
      role: agent.role,
      model: agent.model,
      promptSource: agent.prompt_source ?? 'built-in',
    })),
    judge: scenario.judge,
    plannedRounds: scenario.rounds,
    status: state.end?.status ?? ('running' as const),
    stopReason: state.end?.stopReason ?? null,
    error: state.end?.error ?? null,
    rounds,
    solution,
    totals: {
      contributions: contributions(state).length,
      modelCalls: modelCalls(state),
      promptTokens: calls.reduce((sum, item) => sum + item.promptTokens, 0),
      outputTokens: calls.reduce((sum, item) => sum + item.outputTokens, 0),
      latencyMs: calls.reduce((sum, item) => sum + item.realMs, 0),
    },
    startedAt: state.startedAt,
    updatedAt: state.updatedAt,
  };
}

/** The solution as text, for `--output solution.md`. */
export function critiqueSolutionText(state: CritiqueState): string {
  const { solution, problem } = critiqueTranscript(state);
  if (!solution) return `# ${problem}\n\nNo solution was synthesised.\n`;
  const list = (items: unknown) => (Array.isArray(items) ? items.map((item) => `- ${item}`).join('\n') : '');
  const section = (title: string, body: string) => (body.trim() === '' ? [] : [`## ${title}`, body, '']);
  // Runs recorded before the design was written as prose kept implementation notes apart.
  const notes = typeof solution.implementation_notes === 'string' ? solution.implementation_notes : '';
  return [
    `# ${problem}`,
    '',
    String(solution.description),
    '',
    ...section('Implementation notes', notes),
    ...section('Trade-offs', list(solution.trade_offs)),
    ...section('Recommendations', list(solution.recommendations)),
    typeof solution.confidence === 'number'
      ? `Confidence: ${solution.confidence}/100. Synthesised by ${solution.synthesized_by}.`
      : `Synthesised by ${solution.synthesized_by}; its trade-offs, recommendations and confidence could not be had.`,
    '',
  ].join('\n');
}

/** How it came out, in one sentence, as the report, the transcript and the lists of runs say it. */
export function critiqueResult(state: CritiqueState): string {
  return critiqueOutcome({ ...critiqueTranscript(state), failedSteps: sequenceFailures(state).length });
}

export function critiqueMarkdown(state: CritiqueState): string {
  const transcript = critiqueTranscript(state);
  const lines = [
    `# ${transcript.title ?? transcript.problem}`,
    '',
    `**Result:** ${critiqueResult(state)}`,
    '',
    `- Problem: ${transcript.problem}`,
  ];
  for (const agent of transcript.agents)
    lines.push(
      `- ${agent.name}: ${agent.role}, \`${agent.model}\` (prompt: ${promptSourceText(agent.promptSource)})`,
    );
  lines.push(
    `- Judge: ${transcript.judge.name}, \`${transcript.judge.model}\` (prompt: ${promptSourceText(transcript.judge.prompt_source)})`,
    `- Status: ${transcript.status}`,
  );
  for (const round of transcript.rounds) {
    lines.push('', `## Round ${round.number}`);
    for (const [title, items] of [
      ['Proposals', round.proposals],
      ['Critiques', round.critiques],
      ['Refinements', round.refinements],
    ] as const) {
      lines.push('', `### ${title}`);
      for (const item of items)
        lines.push(
          '',
          `**${item.agent}** (${item.role}${'target' in item ? ` on ${item.target}` : ''})`,
          '',
          ...(item.fallbackFrom ? [`_${fallbackNote(item)}_`, ''] : []),
          item.text,
        );
    }
    if (round.synthesis)
      lines.push(
        '',
        `### Judge's synthesis`,
        '',
        `Confidence ${String(round.synthesis.confidence ?? '—')}: ${String(round.synthesis.description ?? round.synthesis.reason ?? '')}`,
      );
  }
  lines.push('', '## Solution', '', critiqueSolutionText(state));
  return lines.join('\n');
}

export function critiqueReport(state: CritiqueState, layout?: TextLayout): string {
  const transcript = critiqueTranscript(state);
  const rows: Array<Array<string | number>> = [];
  for (const round of transcript.rounds) {
    for (const [phase, items] of [
      ['proposal', round.proposals],
      ['critique', round.critiques],
      ['refinement', round.refinements],
    ] as const) {
      for (const item of items) {
        rows.push([
          round.number,
          phase,
          item.agent,
          'target' in item ? (item.target ?? '') : '',
          firstLine(item.text),
          `${item.promptTokens}/${item.outputTokens}`,
          `${item.latencyMs} ms`,
        ]);
      }
    }
  }
  const { totals, solution } = transcript;
  const table = renderTextTable(
    ['Round', 'Phase', 'Agent', 'On', 'First line', 'Tokens in/out', 'Latency'],
    rows,
    layout ?? WIDE_LAYOUT,
  );
  return `${critiqueResult(state)}\n\n${table}\nTotals: ${totals.contributions} contributions, ${totals.modelCalls} model calls, ${totals.promptTokens} prompt and ${totals.outputTokens} output tokens, ${(totals.latencyMs / 1000).toFixed(1)} s of model latency.${solution ? ' The whole solution follows.' : ''}`;
}
