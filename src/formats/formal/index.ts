/**
 * The formal debate (seed 001) as a format: a fixed plan of statements, then an optional verdict,
 * on the shared runner, log, resume, stop conditions and safe model calls.
 */

import { type FormalSide, formalSides } from '../../config/formal-sides.js';
import { timeoutMilliseconds } from '../../config/timeout-seconds.js';
import { seatModel } from '../../core/person-seat.js';
import { runProgress } from '../../core/run-progress.js';
import { checkScenarioLimits } from '../../core/stop-conditions.js';
import { type TextLayout, WIDE_LAYOUT } from '../../core/text-layout.js';
import { answerJsonSchema } from '../../judging/answer-fields.js';
import { retryPolicyOf } from '../../llm/safe-call.js';
import { renderTextTable } from '../../render/text-table.js';
import type { DoneStep, FormatDefinition, StepContext } from '../format-definition.js';
import { produceAssessment } from '../shared/assessment-call.js';
import { fallbackNote } from '../shared/fallback-note.js';
import { foldSequence, modelCalls, sequenceFailures } from '../shared/sequence-state.js';
import { combineSideSwap } from '../shared/side-swap.js';
import { produceStatement } from '../shared/statement-call.js';
import { formalOutcome } from './formal-outcome.js';
import { FORMAL_PLAN, PHASE_TITLES, type PlannedStatement } from './formal-plan.js';
import {
  addressedName,
  type FormalState,
  phaseMaxTokens,
  sideLabel,
  statementMessages,
} from './formal-prompts.js';
import { settleVerdict, verdictNotes, verdictSchema, verdictSideSwap } from './formal-verdict.js';
import {
  DIGEST_TOKENS,
  type DigestGroup,
  digestMessages,
  missingDigests,
  verdictMessages,
} from './formal-verdict-prompts.js';

export type FormalStep = PlannedStatement | { kind: 'digests'; groups: DigestGroup[] } | { kind: 'verdict' };

/** The debate's statements, without the judge's digests of them. */
const spokenOf = (state: FormalState) => state.statements.filter((statement) => statement.phase !== 'digest');

export function nextFormalStep(state: FormalState): FormalStep | DoneStep {
  const { scenario } = state;
  if (state.end) return { kind: 'done', status: state.end.status, stopReason: state.end.stopReason };
  const limit = checkScenarioLimits(state, scenario);
  if (limit) return { kind: 'done', ...limit };
  const item = FORMAL_PLAN[spokenOf(state).length];
  if (item) return item;
  if (scenario.verdict.enabled && !state.assessments.some((assessment) => assessment.phase === 'verdict')) {
    // A debate longer than the judge's window reaches it as digests of its parts, each written once.
    const groups = missingDigests(state);
    return groups.length > 0 ? { kind: 'digests', groups } : { kind: 'verdict' };
  }
  return { kind: 'done', status: 'completed', stopReason: 'finished' };
}

async function executeFormalStep(step: FormalStep, state: FormalState, context: StepContext): Promise<void> {
  const { scenario } = state;
  const sides = formalSides(scenario);
  const policy = retryPolicyOf(scenario.reliability);
  if (step.kind === 'verdict') {
    await produceVerdict(state, context);
    return;
  }
  if (step.kind === 'digests') {
    const judgeModel = scenario.verdict.judge_model ?? sides.affirmative.model;
    for (const [at, group] of step.groups.entries()) {
      const event = await produceStatement(
        {
          phase: 'digest',
          round: at + 1,
          speaker: 'Judge',
          side: 'judge',
          label: `judge, digest of ${group.title}`,
          heading: `Digest of ${group.title}`,
          model: judgeModel,
          fallbackModels: [],
          temperature: 0.2,
          maxTokens: DIGEST_TOKENS,
          contextWindow: scenario.model_options.context_window,
          seed: scenario.seed,
          messages: digestMessages(state, group),
          policy,
        },
        context,
      );
      context.append({ ...event, target: group.key });
    }
    return;
  }
  const debater = sides[step.side];
  const maxTokens = phaseMaxTokens(scenario, step.phase);
  const settings = scenario.statements;
  const speaking = step.phase !== 'preparation';
  context.append(
    await produceStatement(
      {
        phase: step.phase,
        round: step.index + 1,
        speaker: debater.name,
        side: step.side,
        label: sideLabel(scenario, step.side),
        heading: PHASE_TITLES[step.phase],
        // A person's seat is asked of the person (see docs/podium.md), with no model to fall back on.
        model: seatModel(debater),
        fallbackModels: debater.human ? [] : debater.fallback_models,
        ...(debater.think && !debater.human ? { think: true, thinkingBudget: scenario.thinking_budget } : {}),
        temperature: scenario.model_options.temperature,
        maxTokens,
        contextWindow: scenario.model_options.context_window,
        seed: scenario.seed,
        messages: statementMessages(state, step, maxTokens),
        policy,
        timeLimitMs: timeoutMilliseconds(settings.time_limit_seconds),
        ...(speaking && settings.word_limit
          ? { wordLimit: { limit: settings.word_limit, mode: settings.word_limit_mode } }
          : {}),
        ...(speaking && settings.strict_mode
          ? {
              moderator: {
                model: settings.moderator_model ?? scenario.verdict.judge_model ?? sides.affirmative.model,
                motion: scenario.topic,
                speaker: addressedName(scenario, step.side),
              },
            }
          : {}),
      },
      context,
    ),
  );
}

/** The verdict: one judge call, or two with the sides in swapped order when side swap is on. */
async function produceVerdict(state: FormalState, context: StepContext): Promise<void> {
  const { scenario } = state;
  const sides = formalSides(scenario);
  // New runs settle the judge at the start; runs recorded before that used the affirmative's model.
  const judgeModel = scenario.verdict.judge_model ?? sides.affirmative.model;
  const criteria = scenario.verdict.criteria;
  const names = Object.keys(criteria);
  context.notify({
    type: 'judging-start',
    round: FORMAL_PLAN.length + 1,
    judges: [judgeModel],
    subject: 'the debate',
  });
  const ask = (first: FormalSide) =>
    produceAssessment(
      {
        phase: 'verdict',
        round: FORMAL_PLAN.length + 1,
        judge: 'Judge',
        model: judgeModel,
        fallbackModels: [],
        messages: verdictMessages(state, first),
        schema: verdictSchema(names, first, scenario.verdict.max_tokens),
        jsonSchema: answerJsonSchema(verdictSchema(names, first, scenario.verdict.max_tokens)),
        maxTokens: scenario.verdict.max_tokens,
        contextWindow: scenario.model_options.context_window,
        temperature: 0.2,
        seed: scenario.seed,
        ...(first === 'affirmative' ? {} : { seedLabel: 'swapped' }),
        policy: retryPolicyOf(scenario.reliability),
        enrich: (answer) => settleVerdict(answer, criteria),
      },
      context,
    );
  const first = await ask('affirmative');
  if (!scenario.verdict.side_swap) {
    context.append(first);
    return;
  }
  context.append(combineSideSwap(first, await ask('negative'), verdictSideSwap));
}

export function formalTranscript(state: FormalState) {
  const { scenario } = state;
  const sides = formalSides(scenario);
  const clean = ({
    seq: _seq,
    at: _at,
    type: _type,
    promptChars: _chars,
    ...statement
  }: FormalState['statements'][number]) => statement;
  const verdict = state.assessments.find((assessment) => assessment.phase === 'verdict');
  return {
    runId: state.runId,
    format: 'formal' as const,
    title: scenario.title ?? null,
    topic: scenario.topic,
    seed: scenario.seed,
    positions: scenario.positions,
    sides: {
      affirmative: { name: sides.affirmative.name, model: seatModel(sides.affirmative) },
      negative: { name: sides.negative.name, model: seatModel(sides.negative) },
    },
    status: state.end?.status ?? ('running' as const),
    stopReason: state.end?.stopReason ?? null,
    error: state.end?.error ?? null,
    verdictEnabled: scenario.verdict.enabled,
    plannedSpeeches: FORMAL_PLAN.length,
    preparation: state.statements.filter((statement) => statement.phase === 'preparation').map(clean),
    statements: spokenOf(state)
      .filter((statement) => statement.phase !== 'preparation')
      .map(clean),
    // The judge's digests of the debate's parts, written when the debate outgrew its window.
    ...(state.statements.some((statement) => statement.phase === 'digest')
      ? { digests: state.statements.filter((statement) => statement.phase === 'digest').map(clean) }
      : {}),
    verdict: verdict
      ? {
          judge: verdict.judge,
          model: verdict.model,
          ...(verdict.fallbackFrom ? { fallbackFrom: verdict.fallbackFrom } : {}),
          abstained: verdict.abstained,
          reason: verdict.reason ?? null,
          ...verdict.result,
        }
      : null,
    stats: {
      statements: spokenOf(state).length,
      outputTokens: state.outputTokens,
      modelCalls: modelCalls(state),
      flagged: state.statements.filter((statement) => statement.flagged).length,
      wordLimited: state.statements.filter((statement) => statement.wordLimited).length,
      timeLimited: state.statements.filter((statement) => statement.timeLimited).length,
      degradedTurns: state.statements.filter((statement) => statement.degraded).length,
    },
    startedAt: state.startedAt,
    updatedAt: state.updatedAt,
  };
}

function notes(statement: {
  wordLimited?: boolean;
  timeLimited?: boolean;
  regenerated?: boolean;
  flagged?: string;
  degraded?: boolean;
  fallbackFrom?: string;
  model: string;
}) {
  return [
    statement.degraded ? 'degraded: every model call failed' : '',
    statement.wordLimited ? 'cut to the word limit' : '',
    statement.timeLimited ? 'cut at its time limit' : '',
    statement.regenerated ? 'regenerated once' : '',
    statement.flagged ? `flagged by the moderator: ${statement.flagged}` : '',
    fallbackNote(statement),
  ].filter((note) => note !== '');
}

/** Who won and why, in one sentence, as the report, the transcript and the lists of runs say it. */
function formalResult(state: FormalState): string {
  return formalOutcome({ ...formalTranscript(state), failedSteps: sequenceFailures(state).length });
}

function formalMarkdown(state: FormalState): string {
  const transcript = formalTranscript(state);
  const { sides } = transcript;
  const lines = [
    `# ${transcript.title ?? transcript.topic}`,
    '',
    `**Result:** ${formalResult(state)}`,
    '',
    `- Motion: ${transcript.topic}`,
    `- Affirmative (${transcript.positions.affirmative}): **${sides.affirmative.name}**, model \`${sides.affirmative.model}\``,
    `- Negative (${transcript.positions.negative}): **${sides.negative.name}**, model \`${sides.negative.model}\``,
    `- Run: \`${transcript.runId}\`, seed ${transcript.seed}; status ${transcript.status}`,
  ];
  if (state.scenario.preparation.show && transcript.preparation.length > 0) {
    lines.push('', '## Preparation', '');
    for (const statement of transcript.preparation) {
      lines.push(`### ${statement.speaker} (${statement.side})`, '', statement.text, '');
    }
  }
  let phase = '';
  for (const statement of transcript.statements) {
    const title = PHASE_TITLES[statement.phase as PlannedStatement['phase']];
    if (title !== phase) {
      lines.push('', `## ${title}`, '');
      phase = title;
    }
    const extra = notes(statement);
    lines.push(
      `### ${statement.speaker} (${statement.side}${statement.phase.startsWith('cross-') ? `, ${statement.phase === 'cross-question' ? 'asks' : 'answers'}` : ''})`,
      '',
    );
    if (extra.length > 0) lines.push(`_${extra.join('; ')}_`, '');
    lines.push(statement.text, '');
  }
  const verdict = transcript.verdict as
    | (Record<string, unknown> & { model: string; fallbackFrom?: string })
    | null;
  if (verdict) {
    lines.push('', '## Verdict (separate from the debate)', '');
    const judgeNote = fallbackNote(verdict, 'answered');
    if (judgeNote) lines.push(`_The verdict was ${judgeNote}._`, '');
    if (verdict.abstained) lines.push(`The judge gave no usable verdict (${verdict.reason}).`);
    else {
      const pair = (totals: Record<FormalSide, number>) =>
        `affirmative ${totals.affirmative.toFixed(2)}, negative ${totals.negative.toFixed(2)}`;
      const swap = verdict.side_swap as
        | { agreed: boolean | null; answers: Array<{ totals?: Record<FormalSide, number> } | null> }
        | undefined;
      const readings = swap?.agreed === false ? swap.answers.map((answer) => answer?.totals) : [];
      if (readings[0] && readings[1]) {
        // The two readings' reasons each argue for one side: the tie is told by its numbers alone.
        lines.push(
          `Winner: **${verdict.winner}**.`,
          '',
          `Weighted totals: ${pair(readings[0])} in the first reading; ${pair(readings[1])} in the second.`,
        );
      } else {
        lines.push(
          `Winner: **${verdict.winner}**. ${verdict.reasons}`,
          '',
          `Weighted totals: ${pair(verdict.totals as Record<FormalSide, number>)}.`,
        );
      }
      for (const note of verdictNotes(verdict)) lines.push('', `_${note}_`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function formalReport(state: FormalState, layout?: TextLayout): string {
  const transcript = formalTranscript(state);
  const rows = [...transcript.preparation, ...transcript.statements].map((statement) => [
    PHASE_TITLES[statement.phase as PlannedStatement['phase']] +
      (statement.phase === 'cross-question'
        ? ' (asks)'
        : statement.phase === 'cross-answer'
          ? ' (answers)'
          : ''),
    statement.speaker,
    statement.side,
    statement.outputTokens,
    notes(statement).join('; '),
  ]);
  const table = renderTextTable(['Phase', 'Speaker', 'Side', 'Tokens', 'Notes'], rows, layout ?? WIDE_LAYOUT);
  const verdict = transcript.verdict as Record<string, unknown> | null;
  const checks = verdict && !verdict.abstained ? verdictNotes(verdict).map((note) => ` ${note}`) : [];
  return `${formalResult(state)}${checks.join('')}\nAffirmative (${transcript.positions.affirmative}): ${transcript.sides.affirmative.name} (${transcript.sides.affirmative.model}); negative (${transcript.positions.negative}): ${transcript.sides.negative.name} (${transcript.sides.negative.model}).\n${table}`;
}

export const formalFormat: FormatDefinition<FormalState, FormalStep> = {
  name: 'formal',
  fold: foldSequence,
  next: nextFormalStep,
  execute: executeFormalStep,
  isFinished: (state) => state.end !== null,
  failures: sequenceFailures,
  progress: (state) =>
    runProgress(
      'formal',
      state,
      spokenOf(state).length + state.assessments.length,
      FORMAL_PLAN.length + (state.scenario.verdict.enabled ? 1 : 0),
      sequenceFailures(state).length,
    ),
  transcript: formalTranscript,
  markdown: formalMarkdown,
  report: formalReport,
  checkpoints: ['statement'],
};
