/** Carries out one planned knockout step: model calls (retried, with fallbacks), then the step's events. */

import { promptChars } from '../../agents/prompts.js';
import { mapConcurrent } from '../../core/concurrency.js';
import type { Evaluation, VoteCastEvent } from '../../core/events.js';
import { voteContradictsScores, weightedTotal } from '../../judging/criteria.js';
import { judgeAnswerJsonSchema, judgeAnswerSchema } from '../../judging/evaluation-schema.js';
import { recordedTokens } from '../../llm/call-usage.js';
import { ModelCallFailed, retryPolicyOf } from '../../llm/safe-call.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
import { markIfCut, simulatedSeconds } from '../../timer/speaking-timer.js';
import type { StepContext } from '../format-definition.js';
import { askStructured } from '../shared/structured-call.js';
import { answerBudget, holdToCap } from '../shared/token-budget.js';
import { extractClaims } from './claims-step.js';
import { judgeMessages } from './judge-prompts.js';
import { call, fallbacksOf } from './model-call.js';
import type { KnockoutState } from './state.js';
import type { KnockoutStep } from './steps.js';
import { summarise } from './summary-step.js';

export async function executeKnockoutStep(
  step: KnockoutStep,
  state: KnockoutState,
  context: StepContext,
): Promise<void> {
  switch (step.kind) {
    case 'speak':
      return speak(step, state, context);
    case 'judge':
      return judge(step, state, context);
    case 'summarise':
      return summarise(step, state, context);
    case 'claims':
      return extractClaims(step, state, context);
    case 'comment':
      return comment(step, state, context);
    case 'decide':
      context.append({ ...step.event, realMs: roundRealMs(state, step.event.round, context) });
      return;
  }
}

/**
 * A round's real time: everything between the previous round's end (for round 1, the start of its
 * first step, after the models were loaded) and now, the summary folded before it and the
 * commentary on the round before included, without the time the run was down. A state without a
 * round clock (none of its events timed) falls back to the round's speaking and judging.
 */
export function roundRealMs(
  state: KnockoutState,
  number: number,
  context: Pick<StepContext, 'clock'>,
): number {
  if (state.roundClockMs !== null) {
    const sinceLastEvent = Math.max(0, context.clock.now().getTime() - Date.parse(state.updatedAt));
    return Math.max(0, Math.round(state.activeMs + sinceLastEvent - state.roundClockMs));
  }
  const round = state.rounds.find((candidate) => candidate.number === number);
  const speaking = round?.statements.reduce((sum, statement) => sum + statement.realMs, 0) ?? 0;
  const votes = round?.votes ?? [];
  const judgingStart = Math.min(...votes.map((vote) => Date.parse(vote.at) - vote.realMs));
  const judgingEnd = Math.max(...votes.map((vote) => Date.parse(vote.at)));
  const judging = votes.length > 0 ? Math.max(0, judgingEnd - judgingStart) : 0;
  return Math.round(speaking + judging);
}

/** The SRS's emergency response: clearly marked, and not counted as an argument. */
export function emergencyResponse(agent: string, reason: string): string {
  return `[Emergency response: ${agent} could not speak this turn because the model failed (${reason}). This is not an argument.]`;
}

async function speak(
  step: Extract<KnockoutStep, { kind: 'speak' }>,
  state: KnockoutState,
  context: StepContext,
) {
  const { scenario } = state;
  const agent = scenario.agents.find((candidate) => candidate.name === step.agent);
  context.notify({
    type: 'turn-start',
    round: step.round,
    agent: step.agent,
    label: `Position ${step.position}, ${step.position === 'X' ? scenario.positions.x : scenario.positions.y}`,
    heading: `Round ${step.round}`,
    model: step.model,
    tokenLimit: step.tokenLimit,
  });
  const started = context.clock.monotonicMs();
  const base = {
    type: 'turn-end' as const,
    round: step.round,
    agent: step.agent,
    position: step.position,
    promptChars: promptChars(step.messages),
  };
  try {
    const { result, model, attempts, fallbackFrom, usage } = await call(
      state,
      context,
      {
        model: step.model,
        messages: step.messages,
        maxTokens: answerBudget(step.tokenLimit, agent?.think, scenario.thinking_budget),
        contextWindow: scenario.model_options.context_window,
        temperature: step.temperature,
        seed: derivedSeed(scenario.seed, `turn:round-${step.round}:${step.agent}`),
        ...(agent?.think && !agent.human ? { think: true } : {}),
      },
      `${step.agent}'s statement`,
      {
        // Nothing stands in for a person: no fallback model speaks for them.
        fallbackModels: agent?.human ? [] : (agent?.fallback_models ?? []),
        onDelta: (text) => context.notify({ type: 'turn-delta', round: step.round, agent: step.agent, text }),
      },
    );
    const thinkingTokens = result.thinkingTokens ?? 0;
    // A model loaded for this call (a server swapping models) is recorded apart from its speaking.
    const loadMs = Math.round(result.timings?.loadMs ?? 0);
    // The thinking budget is on top of the answer's cap: the answer itself is held to the cap.
    const held = holdToCap(result.text, result.outputTokens - thinkingTokens, step.tokenLimit);
    const truncated = result.stopReason === 'length' || held.cut;
    const timer = {
      secondsPerSide: scenario.timer.seconds_per_side,
      tokensPerSecond: scenario.timer.tokens_per_second,
    };
    context.append({
      ...base,
      model,
      text: markIfCut(held.text, truncated),
      ...recordedTokens(usage),
      ...(thinkingTokens > 0 ? { thinkingTokens } : {}),
      // Thinking is not speech: only the spoken tokens use speaking time.
      simulatedSeconds: Math.round(simulatedSeconds(held.answerTokens, timer) * 100) / 100,
      truncated,
      realMs: Math.round(context.clock.monotonicMs() - started),
      ...(loadMs > 0 ? { loadMs } : {}),
      attempts,
      ...(fallbackFrom ? { fallbackFrom } : {}),
    });
  } catch (error) {
    if (!(error instanceof ModelCallFailed)) throw error;
    context.logger.error(
      { agent: step.agent, round: step.round, error: error.message },
      'statement degraded',
    );
    context.append({
      ...base,
      model: step.model,
      text: emergencyResponse(step.agent, error.last.kind),
      ...recordedTokens(error.usage),
      simulatedSeconds: 0,
      truncated: false,
      realMs: Math.round(context.clock.monotonicMs() - started),
      attempts: error.attempts,
      degraded: true,
      failureReason: error.message,
    });
  }
}

async function judge(
  step: Extract<KnockoutStep, { kind: 'judge' }>,
  state: KnockoutState,
  context: StepContext,
) {
  const round = state.rounds.find((candidate) => candidate.number === step.round);
  const debater = round?.debater ?? state.currentDebater;
  context.notify({ type: 'judging-start', round: step.round, judges: step.judges, subject: debater });
  await mapConcurrent(step.judges, state.scenario.judging.concurrency, async (name) => {
    const vote = await castVote(state, name, step.round, debater, context);
    context.append(vote);
  });
}

async function castVote(
  state: KnockoutState,
  name: string,
  round: number,
  debater: string,
  context: StepContext,
): Promise<Omit<VoteCastEvent, 'seq' | 'at'>> {
  const { scenario } = state;
  const judgeAgent = scenario.agents.find((agent) => agent.name === name);
  if (!judgeAgent) throw new Error(`judge ${name} is not in the scenario`);
  const criteria = scenario.judging.criteria;
  const cap = scenario.judging.max_tokens;
  const started = context.clock.monotonicMs();
  const outcome = await askStructured(
    {
      what: `${name}'s evaluation`,
      model: judgeAgent.model,
      fallbackModels: judgeAgent.fallback_models,
      messages: judgeMessages(state, judgeAgent, round, debater),
      schema: judgeAnswerSchema(criteria, cap),
      jsonSchema: judgeAnswerJsonSchema(criteria, cap),
      maxTokens: cap,
      contextWindow: scenario.model_options.context_window,
      // A judge's own temperature (low by default), not the one it debates at.
      temperature: scenario.judging.temperature,
      seedOf: (attempt) => derivedSeed(scenario.seed, `vote:round-${round}:${name}:attempt-${attempt}`),
      policy: retryPolicyOf(scenario.reliability),
      ...(judgeAgent.think ? { think: true, thinkingBudget: scenario.thinking_budget } : {}),
      marginTokens: scenario.context.margin_tokens,
      onRepair: (reason) => context.notify({ type: 'judge-retry', round, judge: name, reason }),
    },
    context,
  );
  const answer = outcome.value;
  const evaluation: Evaluation | null = answer
    ? (() => {
        const total = weightedTotal(answer.position_y_performance, criteria);
        return {
          round_number: round,
          position_y_performance: answer.position_y_performance,
          total_score: total,
          comments: answer.comments,
          continue_vote: answer.continue_vote,
          new_arguments: answer.new_arguments,
          ...(voteContradictsScores(total, answer.continue_vote) ? { inconsistent: true } : {}),
        };
      })()
    : null;
  if (outcome.callFailed) {
    context.logger.warn(
      { judge: name, round, error: outcome.callFailed },
      'judge call failed; the judge abstains',
    );
  }
  return {
    type: 'vote-cast',
    round,
    judge: name,
    model: outcome.model,
    evaluation,
    abstained: evaluation === null,
    ...(evaluation === null && outcome.reason ? { abstainReason: outcome.reason } : {}),
    ...(outcome.callFailed ? { callFailed: true } : {}),
    ...(outcome.fallbackFrom ? { fallbackFrom: outcome.fallbackFrom } : {}),
    ...(outcome.problems.length > 0 ? { problems: outcome.problems } : {}),
    ...(outcome.clamped ? { clamped: outcome.clamped } : {}),
    attempts: outcome.attempts,
    ...recordedTokens(outcome.usage),
    realMs: Math.round(context.clock.monotonicMs() - started),
  };
}

/** The commentator's words after a round; a failed call leaves the round without commentary, said so. */
async function comment(
  step: Extract<KnockoutStep, { kind: 'comment' }>,
  state: KnockoutState,
  context: StepContext,
) {
  const { scenario } = state;
  const name = scenario.commentary?.name ?? 'Commentator';
  const started = context.clock.monotonicMs();
  const base = {
    type: 'commentary' as const,
    round: step.round,
    promptChars: promptChars(step.messages),
  };
  try {
    const answer = await call(
      state,
      context,
      {
        model: step.model,
        messages: step.messages,
        maxTokens: scenario.commentary?.max_tokens ?? 200,
        contextWindow: scenario.model_options.context_window,
        temperature: 0.7,
        seed: derivedSeed(scenario.seed, `commentary:round-${step.round}`),
      },
      `${name}'s commentary`,
      { fallbackModels: fallbacksOf(state, step.model) },
    );
    context.append({
      ...base,
      model: answer.model,
      text: answer.result.text.trim(),
      ...recordedTokens(answer.usage),
      realMs: Math.round(context.clock.monotonicMs() - started),
      attempts: answer.attempts,
    });
  } catch (error) {
    if (!(error instanceof ModelCallFailed)) throw error;
    context.logger.warn({ round: step.round, error: error.message }, 'commentary failed');
    context.append({
      ...base,
      model: step.model,
      text: '',
      failed: error.last.kind,
      ...recordedTokens(error.usage),
      realMs: Math.round(context.clock.monotonicMs() - started),
      attempts: error.attempts,
    });
  }
}
