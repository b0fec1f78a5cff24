/**
 * Critique and refine (seed 002): each round every agent proposes (in parallel), critiques every
 * other proposal, and refines its own; the judge synthesises a solution at the end, or after every
 * round when a confidence threshold may stop the debate early.
 */

import { z } from 'zod';
import { mapConcurrentInOrder } from '../../core/concurrency.js';
import { runProgress } from '../../core/run-progress.js';
import { checkScenarioLimits } from '../../core/stop-conditions.js';
import { type TextLayout, WIDE_LAYOUT } from '../../core/text-layout.js';
import { answerJsonSchema, boundedInteger, boundedList, boundedText } from '../../judging/answer-fields.js';
import type { ChatMessage } from '../../llm/provider.js';
import { retryPolicyOf } from '../../llm/safe-call.js';
import { renderTextTable } from '../../render/text-table.js';
import type { DoneStep, FormatDefinition, StepContext } from '../format-definition.js';
import { produceAssessment } from '../shared/assessment-call.js';
import { foldSequence, modelCalls, sequenceFailures } from '../shared/sequence-state.js';
import { produceStatement } from '../shared/statement-call.js';
import {
  type CritiqueState,
  critiqueMessages,
  designMessages,
  proposalMessages,
  refinementMessages,
  synthesisMessages,
} from './critique-prompts.js';

export type CritiqueStep =
  | { kind: 'proposals'; round: number; agents: string[] }
  | { kind: 'critiques'; round: number; pairs: Array<[string, string]> }
  | { kind: 'refinements'; round: number; agents: string[] }
  | { kind: 'design'; round: number }
  | { kind: 'synthesis'; round: number };

/**
 * The synthesis's structured fields, asked after the design is written as prose: a cut here
 * costs the record its trade-offs, never the solution itself.
 */
export const solutionSchema = z.object({
  trade_offs: boundedList(boundedText(150), 4),
  recommendations: boundedList(boundedText(150), 4),
  confidence: boundedInteger(0, 100),
});

const solutionJsonSchema = answerJsonSchema(solutionSchema);

const syntheses = (state: CritiqueState) => state.assessments.filter((item) => item.phase === 'synthesis');
/** The judge's design, written before the synthesis's structured fields. */
const designOf = (state: CritiqueState, round: number) =>
  state.statements.find((statement) => statement.phase === 'synthesis' && statement.round === round);
const contributions = (state: CritiqueState) =>
  state.statements.filter((statement) => statement.phase !== 'synthesis');

export function nextCritiqueStep(state: CritiqueState): CritiqueStep | DoneStep {
  const { scenario } = state;
  if (state.end) return { kind: 'done', status: state.end.status, stopReason: state.end.stopReason };
  const limit = checkScenarioLimits(state, scenario);
  if (limit) return { kind: 'done', ...limit };
  const names = scenario.agents.map((agent) => agent.name);
  const threshold = scenario.confidence_threshold;
  for (let round = 1; round <= scenario.rounds; round += 1) {
    const done = (phase: string, speaker: string, target?: string) =>
      state.statements.some(
        (statement) =>
          statement.round === round &&
          statement.phase === phase &&
          statement.speaker === speaker &&
          statement.target === target,
      );
    const proposals = names.filter((name) => !done('proposal', name));
    if (proposals.length > 0) return { kind: 'proposals', round, agents: proposals };
    const pairs = names.flatMap((critic) =>
      names
        .filter((target) => target !== critic && !done('critique', critic, target))
        .map((target): [string, string] => [critic, target]),
    );
    if (pairs.length > 0) return { kind: 'critiques', round, pairs };
    const refinements = names.filter((name) => !done('refinement', name));
    if (refinements.length > 0) return { kind: 'refinements', round, agents: refinements };
    const wantsSynthesis = threshold !== undefined || round === scenario.rounds;
    const synthesis = syntheses(state).find((item) => item.round === round);
    if (wantsSynthesis && !synthesis) {
      return designOf(state, round) ? { kind: 'synthesis', round } : { kind: 'design', round };
    }
    // A 7-8B judge reports 85-95 by habit: one round's word is not enough to stop early, two
    // syntheses in a row at the threshold are.
    const confident = (item: typeof synthesis) => {
      const confidence = item?.result?.confidence;
      return threshold !== undefined && typeof confidence === 'number' && confidence >= threshold;
    };
    if (confident(synthesis) && confident(syntheses(state).find((item) => item.round === round - 1))) {
      return { kind: 'done', status: 'completed', stopReason: 'confidence_threshold' };
    }
  }
  return { kind: 'done', status: 'completed', stopReason: 'max_rounds' };
}

async function executeCritiqueStep(
  step: CritiqueStep,
  state: CritiqueState,
  context: StepContext,
): Promise<void> {
  const { scenario } = state;
  const policy = retryPolicyOf(scenario.reliability);
  const agent = (name: string) => {
    const found = scenario.agents.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`agent ${name} is not in the scenario`);
    return found;
  };
  const speak = (name: string, phase: string, messages: ChatMessage[], target?: string) => {
    const speaker = agent(name);
    return produceStatement(
      {
        phase,
        round: step.round,
        speaker: speaker.name,
        side: speaker.role,
        label: `${speaker.role}${target ? `, on ${target}` : ''}`,
        heading: `Round ${step.round} ${phase}`,
        model: speaker.model,
        fallbackModels: speaker.fallback_models,
        ...(speaker.think ? { think: true, thinkingBudget: scenario.thinking_budget } : {}),
        temperature: scenario.model_options.temperature,
        maxTokens: scenario.max_tokens,
        contextWindow: scenario.model_options.context_window,
        seed: scenario.seed,
        messages,
        policy,
      },
      context,
    ).then((event) => (target ? { ...event, target } : event));
  };
  // Contributions made side by side are recorded in the plan's order (by agent), whichever finishes first.
  const record = (event: Awaited<ReturnType<typeof speak>>) => {
    context.append(event);
  };
  // Views show contributions made side by side whole, as each is recorded, not as interleaved streams.
  const sideBySide = async (phase: string, who: string[], run: () => Promise<void>) => {
    if (Math.min(scenario.concurrency, who.length) < 2) return run();
    context.notify({
      type: 'parallel-start',
      round: step.round,
      heading: `Round ${step.round} ${phase}`,
      who,
    });
    try {
      await run();
    } finally {
      context.notify({ type: 'parallel-end', round: step.round });
    }
  };
  switch (step.kind) {
    case 'proposals':
      await sideBySide('proposals', step.agents, () =>
        mapConcurrentInOrder(
          step.agents,
          scenario.concurrency,
          (name) => speak(name, 'proposal', proposalMessages(state, agent(name), step.round)),
          record,
        ),
      );
      return;
    case 'critiques':
      await sideBySide(
        'critiques',
        step.pairs.map(([critic, target]) => `${critic} on ${target}`),
        () =>
          mapConcurrentInOrder(
            step.pairs,
            scenario.concurrency,
            ([critic, target]) =>
              speak(critic, 'critique', critiqueMessages(state, agent(critic), target, step.round), target),
            record,
          ),
      );
      return;
    case 'refinements':
      await sideBySide('refinements', step.agents, () =>
        mapConcurrentInOrder(
          step.agents,
          scenario.concurrency,
          (name) => speak(name, 'refinement', refinementMessages(state, agent(name), step.round)),
          record,
        ),
      );
      return;
    case 'design':
      context.append(
        await produceStatement(
          {
            phase: 'synthesis',
            round: step.round,
            speaker: scenario.judge.name,
            side: 'judge',
            label: 'judge',
            heading: `Round ${step.round} synthesis`,
            model: scenario.judge.model,
            fallbackModels: [],
            temperature: 0.2,
            maxTokens: scenario.judge_max_tokens,
            contextWindow: scenario.model_options.context_window,
            seed: scenario.seed,
            messages: designMessages(state, step.round),
            policy,
          },
          context,
        ),
      );
      return;
    case 'synthesis': {
      const design = designOf(state, step.round);
      context.notify({
        type: 'judging-start',
        round: step.round,
        judges: [scenario.judge.name],
        subject: 'the synthesised design',
      });
      context.append(
        await produceAssessment(
          {
            phase: 'synthesis',
            round: step.round,
            judge: scenario.judge.name,
            model: scenario.judge.model,
            fallbackModels: [],
            messages: synthesisMessages(state, step.round, design?.text ?? ''),
            schema: solutionSchema,
            jsonSchema: solutionJsonSchema,
            maxTokens: SOLUTION_FIELDS_TOKENS,
            contextWindow: scenario.model_options.context_window,
            temperature: 0.2,
            seed: scenario.seed,
            policy,
            enrich: () => ({
              description: design?.degraded ? '' : (design?.text ?? ''),
              synthesized_by: scenario.judge.name,
            }),
          },
          context,
        ),
      );
      return;
    }
  }
}

/** The cap of the synthesis's structured fields: its lists and its confidence, not the design. */
const SOLUTION_FIELDS_TOKENS = 500;

const firstLine = (text: string) => (text.trim().split('\n')[0] ?? '').slice(0, 100);

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

function critiqueMarkdown(state: CritiqueState): string {
  const transcript = critiqueTranscript(state);
  const lines = [`# ${transcript.title ?? transcript.problem}`, '', `- Problem: ${transcript.problem}`];
  for (const agent of transcript.agents)
    lines.push(`- ${agent.name}: ${agent.role}, \`${agent.model}\` (prompt: ${agent.promptSource})`);
  lines.push(
    `- Judge: ${transcript.judge.name}, \`${transcript.judge.model}\``,
    `- Status: ${transcript.status}${transcript.stopReason ? ` (${transcript.stopReason})` : ''}`,
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

function critiqueReport(state: CritiqueState, layout?: TextLayout): string {
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
  return `${table}\nTotals: ${totals.contributions} contributions, ${totals.modelCalls} model calls, ${totals.promptTokens} prompt and ${totals.outputTokens} output tokens, ${(totals.latencyMs / 1000).toFixed(1)} s of model latency.\nResult: ${transcript.status} (${transcript.stopReason}).${solution ? (typeof solution.confidence === 'number' ? ` Solution confidence ${solution.confidence}/100; the solution follows.` : ' The solution follows.') : ' No solution.'}`;
}

export const critiqueFormat: FormatDefinition<CritiqueState, CritiqueStep> = {
  name: 'critique',
  fold: foldSequence,
  next: nextCritiqueStep,
  execute: executeCritiqueStep,
  isFinished: (state) => state.end !== null,
  failures: sequenceFailures,
  progress: (state) =>
    runProgress(
      'critique',
      state,
      new Set(
        state.statements
          .filter((statement) => statement.phase === 'refinement')
          .map((statement) => statement.round),
      ).size,
      state.scenario.rounds,
      sequenceFailures(state).length,
    ),
  transcript: critiqueTranscript,
  markdown: critiqueMarkdown,
  report: critiqueReport,
  solutionText: critiqueSolutionText,
  answer: critiqueSolutionText,
  checkpoints: ['assessment'],
};
