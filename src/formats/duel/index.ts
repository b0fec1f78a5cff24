/**
 * The judged duel (seed 000): each round Debater A, Debater B, then the Judge, each step persisted
 * before the next; stops at max_rounds, the shared limits, or the Judge's early stop.
 */

import { z } from 'zod';
import { seatModel } from '../../core/person-seat.js';
import { runProgress } from '../../core/run-progress.js';
import { checkScenarioLimits } from '../../core/stop-conditions.js';
import { type TextLayout, WIDE_LAYOUT } from '../../core/text-layout.js';
import { answerJsonSchema, boundedText, charsFor, looseBoolean } from '../../judging/answer-fields.js';
import { retryPolicyOf } from '../../llm/safe-call.js';
import { renderTextTable } from '../../render/text-table.js';
import type { DoneStep, FormatDefinition } from '../format-definition.js';
import { produceAssessment } from '../shared/assessment-call.js';
import { fallbackNote } from '../shared/fallback-note.js';
import { foldSequence, modelCalls, sequenceFailures } from '../shared/sequence-state.js';
import { combineSideSwap, type SideSwapRules } from '../shared/side-swap.js';
import { produceStatement } from '../shared/statement-call.js';
import { duelOutcome } from './duel-outcome.js';
import {
  type DuelSide,
  type DuelState,
  debaterMessages,
  judgeChoiceLabels,
  judgeMessages,
  sideLabel,
} from './duel-prompts.js';

export type DuelStep = { kind: 'speak'; round: number; side: DuelSide } | { kind: 'judge'; round: number };

/**
 * The judgement, its reasons before its pick (structured output writes the fields in this order),
 * its texts sized to fit the judge's cap. The pick names a debater by the word its task gave it
 * (`judgeChoiceLabels`), listed in the order this reading presents the sides, and is recorded as
 * the run's own side ("a", "b" or "even"), whichever reading gave it.
 */
export function duelJudgementSchema(
  maxTokens: number,
  labels: Record<DuelSide, string> = { a: 'a', b: 'b' },
  swapped = false,
) {
  const [first, second] = swapped ? (['b', 'a'] as const) : (['a', 'b'] as const);
  // Read as small models write it: any case, spaces or quotes around it, "Ada (arguing for ...)".
  const named = (value: unknown) => {
    if (typeof value !== 'string') return value;
    const said = value
      .trim()
      .replace(/^["'“”]+|["'“”.]+$/g, '')
      .toLowerCase();
    const sides = (['a', 'b'] as const).filter(
      (side) => said === labels[side].toLowerCase() || said.startsWith(`${labels[side].toLowerCase()} (`),
    );
    if (sides.length === 1) return labels[sides[0] as DuelSide];
    return said === 'even' ? 'even' : value;
  };
  return z.object({
    summary: boundedText(charsFor(maxTokens, 0.3, 300)),
    why: boundedText(charsFor(maxTokens, 0.4, 400)),
    no_new_arguments: looseBoolean,
    // The transform inside the preprocess: the field stays required in the schema sent.
    stronger: z.preprocess(
      named,
      z
        .enum([labels[first], labels[second], 'even'])
        .transform((label): DuelSide | 'even' =>
          label === labels.a ? 'a' : label === labels.b ? 'b' : 'even',
        ),
    ),
  });
}

const judgements = (state: DuelState) => state.assessments.filter((item) => item.phase === 'judgement');

export function nextDuelStep(state: DuelState): DuelStep | DoneStep {
  const { scenario } = state;
  if (state.end) return { kind: 'done', status: state.end.status, stopReason: state.end.stopReason };
  const judged = judgements(state);
  const lastJudged = judged.at(-1)?.round ?? 0;
  if (lastJudged >= scenario.max_rounds)
    return { kind: 'done', status: 'completed', stopReason: 'max_rounds' };
  const limit = checkScenarioLimits(state, scenario);
  if (limit) return { kind: 'done', ...limit };
  if (scenario.stop.judge_early_stop && judged.length >= 2) {
    const lastTwo = judged.slice(-2);
    if (lastTwo.every((item) => item.result?.no_new_arguments === true)) {
      return { kind: 'done', status: 'completed', stopReason: 'judge_early_stop' };
    }
  }
  const round = lastJudged + 1;
  const spoken = state.statements.filter((statement) => statement.round === round);
  for (const side of ['a', 'b'] as const) {
    if (!spoken.some((statement) => statement.side === side)) return { kind: 'speak', round, side };
  }
  return { kind: 'judge', round };
}

async function executeDuelStep(
  step: DuelStep,
  state: DuelState,
  context: Parameters<FormatDefinition<DuelState, DuelStep>['execute']>[2],
) {
  const { scenario } = state;
  const policy = retryPolicyOf(scenario.reliability);
  if (step.kind === 'speak') {
    const debater = scenario.debaters[step.side];
    context.append(
      await produceStatement(
        {
          phase: 'argument',
          round: step.round,
          speaker: debater.name,
          side: step.side,
          label: sideLabel(scenario, step.side),
          heading: `Round ${step.round}`,
          // A person's seat is asked of the person (see docs/podium.md), with no model to fall back on.
          model: seatModel(debater),
          fallbackModels: debater.human ? [] : debater.fallback_models,
          ...(debater.think && !debater.human
            ? { think: true, thinkingBudget: scenario.thinking_budget }
            : {}),
          temperature: scenario.model_options.temperature,
          maxTokens: scenario.debater_max_tokens,
          contextWindow: scenario.model_options.context_window,
          seed: scenario.seed,
          messages: debaterMessages(state, step.side, step.round, context.tokenRates?.get(debater.model)),
          policy,
        },
        context,
      ),
    );
    return;
  }
  // A round with an emergency response is not judged: neither side may win it on a failure.
  const failed = state.statements.filter((statement) => statement.round === step.round && statement.degraded);
  if (failed.length > 0) {
    context.append({
      type: 'assessment',
      phase: 'judgement',
      round: step.round,
      judge: scenario.judge.name,
      model: scenario.judge.model,
      result: null,
      abstained: true,
      reason: `void: ${failed.map((statement) => statement.speaker).join(' and ')} could not speak (the model failed), so the round is not judged`,
      promptTokens: 0,
      promptChars: 0,
      outputTokens: 0,
      realMs: 0,
      attempts: 0,
    });
    return;
  }
  context.notify({
    type: 'judging-start',
    round: step.round,
    judges: [scenario.judge.name],
    subject: `round ${step.round}`,
  });
  const labels = judgeChoiceLabels(scenario);
  const ask = (seedLabel?: string) =>
    produceAssessment(
      {
        phase: 'judgement',
        round: step.round,
        judge: scenario.judge.name,
        model: scenario.judge.model,
        fallbackModels: scenario.judge.fallback_models,
        ...(scenario.judge.think ? { think: true, thinkingBudget: scenario.thinking_budget } : {}),
        messages: judgeMessages(
          state,
          step.round,
          seedLabel === 'swapped',
          context.tokenRates?.get(scenario.judge.model),
        ),
        schema: duelJudgementSchema(scenario.judge_max_tokens, labels, seedLabel === 'swapped'),
        jsonSchema: answerJsonSchema(
          duelJudgementSchema(scenario.judge_max_tokens, labels, seedLabel === 'swapped'),
        ),
        maxTokens: scenario.judge_max_tokens,
        contextWindow: scenario.model_options.context_window,
        temperature: 0.2,
        seed: scenario.seed,
        ...(seedLabel ? { seedLabel } : {}),
        policy,
      },
      context,
    );
  const first = await ask();
  if (!scenario.judge.side_swap) {
    context.append(first);
    return;
  }
  context.append(combineSideSwap(first, await ask('swapped'), JUDGEMENT_SIDE_SWAP));
}

/** Both readings' answers name the debater, recorded as the run's own side: nothing to map back. */
const JUDGEMENT_SIDE_SWAP: SideSwapRules = {
  presentedFirst: ['a', 'b'],
  pickOf: (result) => String(result.stronger),
  tie: 'even',
  // Only two answers that both find nothing new stop the debate early.
  combine: (first, second, pick) => ({
    ...first,
    stronger: pick,
    no_new_arguments: first.no_new_arguments === true && second.no_new_arguments === true,
  }),
};

/** The note a side-swapped judgement carries when the two orders disagreed. */
function swapNote(judgement: Record<string, unknown>): string {
  const swap = judgement.side_swap as { picks: Array<string | null>; agreed: boolean | null } | undefined;
  if (swap?.agreed === false) {
    return ` (Asked twice with the sides in swapped order, the judge found ${String(swap.picks[0]).toUpperCase()} and then ${String(swap.picks[1]).toUpperCase()} stronger: recorded as even.)`;
  }
  if (swap?.agreed === null) return ' (Only one of the two side-swapped answers was usable.)';
  return '';
}

export function duelTranscript(state: DuelState) {
  const { scenario } = state;
  const rounds = [...new Set(state.statements.map((statement) => statement.round))].map((number) => {
    const judgement = judgements(state).find((item) => item.round === number);
    return {
      number,
      statements: state.statements
        .filter((statement) => statement.round === number)
        .map(({ seq: _seq, at: _at, type: _type, promptChars: _chars, ...statement }) => statement),
      judgement: judgement
        ? {
            judge: judgement.judge,
            model: judgement.model,
            ...(judgement.fallbackFrom ? { fallbackFrom: judgement.fallbackFrom } : {}),
            abstained: judgement.abstained,
            reason: judgement.reason ?? null,
            ...judgement.result,
          }
        : null,
    };
  });
  const stronger = (side: string) =>
    judgements(state).filter((item) => item.result?.stronger === side).length;
  return {
    runId: state.runId,
    format: 'duel' as const,
    title: scenario.title ?? null,
    topic: scenario.topic,
    seed: scenario.seed,
    positions: scenario.positions,
    debaters: {
      a: { name: scenario.debaters.a.name, model: seatModel(scenario.debaters.a) },
      b: { name: scenario.debaters.b.name, model: seatModel(scenario.debaters.b) },
    },
    judge: { name: scenario.judge.name, model: scenario.judge.model },
    plannedRounds: scenario.max_rounds,
    status: state.end?.status ?? ('running' as const),
    stopReason: state.end?.stopReason ?? null,
    error: state.end?.error ?? null,
    rounds,
    stats: {
      rounds: judgements(state).length,
      roundsWon: { a: stronger('a'), b: stronger('b'), even: stronger('even') },
      outputTokens: state.outputTokens,
      modelCalls: modelCalls(state),
      degradedTurns: state.statements.filter((statement) => statement.degraded).length,
    },
    startedAt: state.startedAt,
    updatedAt: state.updatedAt,
  };
}

/** Who won and why, in one sentence, as the report, the transcript and the lists of runs say it. */
function duelResult(state: DuelState): string {
  return duelOutcome({ ...duelTranscript(state), failedSteps: sequenceFailures(state).length });
}

function duelMarkdown(state: DuelState): string {
  const transcript = duelTranscript(state);
  const lines = [
    `# ${transcript.title ?? transcript.topic}`,
    '',
    `**Result:** ${duelResult(state)}`,
    '',
    `- Motion: ${transcript.topic}`,
    `- Debater A: **${transcript.debaters.a.name}** (\`${transcript.debaters.a.model}\`), ${transcript.positions.a}`,
    `- Debater B: **${transcript.debaters.b.name}** (\`${transcript.debaters.b.model}\`), ${transcript.positions.b}`,
    `- Judge: **${transcript.judge.name}** (\`${transcript.judge.model}\`)`,
    `- Run: \`${transcript.runId}\`, seed ${transcript.seed}; status ${transcript.status}`,
  ];
  for (const round of transcript.rounds) {
    lines.push('', `## Round ${round.number}`, '');
    for (const statement of round.statements) {
      const note = fallbackNote(statement);
      lines.push(
        `### ${statement.speaker} (Debater ${statement.side.toUpperCase()})`,
        '',
        ...(note ? [`_${note}_`, ''] : []),
        statement.text,
        '',
      );
    }
    const judgement = round.judgement as
      | (Record<string, unknown> & { model: string; fallbackFrom?: string })
      | null;
    const judgeNote = judgement ? fallbackNote(judgement, 'answered') : '';
    const judge = `**Judge${judgeNote ? ` (${judgeNote})` : ''}:**`;
    if (judgement?.abstained) lines.push(`${judge} abstained (${judgement.reason})`);
    else if (judgement) {
      // Readings that disagreed are even: the first reading's reason argues for one side, so it is not given.
      const disagreed = (judgement.side_swap as { agreed?: boolean | null } | undefined)?.agreed === false;
      lines.push(
        `${judge} ${judgement.summary} Stronger: ${String(judgement.stronger).toUpperCase()}.${disagreed ? '' : ` ${judgement.why}`}${judgement.no_new_arguments ? ' (No new substantive arguments.)' : ''}${swapNote(judgement)}`,
      );
    }
  }
  const won = transcript.stats.roundsWon;
  lines.push(
    '',
    `Rounds won: ${transcript.debaters.a.name} (A) ${won.a}, ${transcript.debaters.b.name} (B) ${won.b}, even ${won.even}.`,
    '',
  );
  return lines.join('\n');
}

function duelReport(state: DuelState, layout?: TextLayout): string {
  const transcript = duelTranscript(state);
  const rows = transcript.rounds.map((round) => {
    const tokens = (side: string) =>
      round.statements.find((statement) => statement.side === side)?.outputTokens ?? '—';
    const judgement = round.judgement as Record<string, unknown> | null;
    return [
      round.number,
      tokens('a'),
      tokens('b'),
      judgement && !judgement.abstained ? String(judgement.stronger).toUpperCase() : '—',
      judgement && !judgement.abstained ? (judgement.no_new_arguments ? 'none' : 'yes') : '—',
    ];
  });
  const table = renderTextTable(
    ['Round', 'A tokens', 'B tokens', 'Stronger', 'New arguments'],
    rows,
    layout ?? WIDE_LAYOUT,
  );
  return `${duelResult(state)}\n${table}`;
}

export const duelFormat: FormatDefinition<DuelState, DuelStep> = {
  name: 'duel',
  fold: foldSequence,
  next: nextDuelStep,
  execute: executeDuelStep,
  isFinished: (state) => state.end !== null,
  failures: sequenceFailures,
  progress: (state) =>
    runProgress(
      'duel',
      state,
      judgements(state).length,
      state.scenario.max_rounds,
      sequenceFailures(state).length,
    ),
  transcript: duelTranscript,
  markdown: duelMarkdown,
  report: duelReport,
  checkpoints: ['assessment'],
};
