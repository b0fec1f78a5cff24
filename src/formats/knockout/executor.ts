/** Carries out one planned knockout step: model calls (retried, with fallbacks), then the step's events. */

import {
  claimsAnswerSchema,
  claimsJsonSchema,
  heuristicClaims,
  verifiedClaims,
} from '../../agents/claim-extraction.js';
import { promptChars } from '../../agents/prompts.js';
import { fittedChat } from '../../context/fitted-call.js';
import { mapConcurrent } from '../../core/concurrency.js';
import type { Evaluation, VoteCastEvent } from '../../core/events.js';
import { voteContradictsScores, weightedTotal } from '../../judging/criteria.js';
import { judgeAnswerJsonSchema, judgeAnswerSchema } from '../../judging/evaluation-schema.js';
import { recordedTokens } from '../../llm/call-usage.js';
import type { ChatRequest } from '../../llm/provider.js';
import { ModelCallFailed, retryPolicyOf, type SafeCallResult } from '../../llm/safe-call.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
import { markIfCut, simulatedSeconds } from '../../timer/speaking-timer.js';
import type { StepContext } from '../format-definition.js';
import { askStructured } from '../shared/structured-call.js';
import { answerBudget, holdToCap } from '../shared/token-budget.js';
import { judgeMessages } from './knockout-prompts.js';
import type { KnockoutState } from './state.js';
import type { KnockoutStep } from './steps.js';

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
    case 'decide': {
      const round = state.rounds.find((candidate) => candidate.number === step.event.round);
      const speaking = round?.statements.reduce((sum, statement) => sum + statement.realMs, 0) ?? 0;
      const votes = round?.votes ?? [];
      const judgingStart = Math.min(...votes.map((vote) => Date.parse(vote.at) - vote.realMs));
      const judgingEnd = Math.max(...votes.map((vote) => Date.parse(vote.at)));
      const judging = votes.length > 0 ? Math.max(0, judgingEnd - judgingStart) : 0;
      context.append({ ...step.event, realMs: Math.round(speaking + judging) });
      return;
    }
  }
}

/** A model call with the scenario's retry policy, the agent's fallbacks and live retry notices. */
function call(
  state: KnockoutState,
  context: StepContext,
  request: ChatRequest,
  what: string,
  extra: { fallbackModels?: readonly string[]; onDelta?: (text: string) => void } = {},
): Promise<SafeCallResult> {
  const { reliability } = state.scenario;
  return fittedChat(context.provider, request, {
    what,
    ...(context.tokenRates ? { rates: context.tokenRates } : {}),
    marginTokens: state.scenario.context.margin_tokens,
    policy: retryPolicyOf(reliability),
    signal: context.signal,
    ...(extra.fallbackModels ? { fallbackModels: extra.fallbackModels } : {}),
    ...(extra.onDelta ? { onDelta: extra.onDelta } : {}),
    onRetry: ({ model, attempt, delayMs, error }) => {
      context.logger.warn(
        { what, model, attempt, delayMs, error: error.message, kind: error.kind },
        'model call retried',
      );
      context.notify({ type: 'retry', what: `${what} (${model})`, attempt, delayMs, reason: error.kind });
    },
  });
}

/**
 * Fallbacks for a call that borrows an agent's model (claims, summaries, commentary): the fallback
 * models of the agents that use it, so a missing model is replaced as it would be for them.
 */
function fallbacksOf(state: KnockoutState, model: string): string[] {
  return [
    ...new Set(
      state.scenario.agents
        .filter((agent) => agent.model === model)
        .flatMap((agent) => agent.fallback_models),
    ),
  ];
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
        ...(agent?.think ? { think: true } : {}),
      },
      `${step.agent}'s statement`,
      {
        fallbackModels: agent?.fallback_models ?? [],
        onDelta: (text) => context.notify({ type: 'turn-delta', round: step.round, agent: step.agent, text }),
      },
    );
    const thinkingTokens = result.thinkingTokens ?? 0;
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

/** The claims of one statement into the ledger: a small structured call, or key sentences. */
async function extractClaims(
  step: Extract<KnockoutStep, { kind: 'claims' }>,
  state: KnockoutState,
  context: StepContext,
) {
  const statement = state.rounds
    .find((round) => round.number === step.round)
    ?.statements.find((item) => item.agent === step.agent);
  const base = {
    type: 'claims' as const,
    round: step.round,
    agent: step.agent,
    position: step.position,
  };
  const heuristic = (reason?: string) => ({
    ...base,
    source: 'heuristic' as const,
    claims: heuristicClaims(statement?.text ?? ''),
    promptTokens: 0,
    promptChars: 0,
    outputTokens: 0,
    realMs: 0,
    attempts: 0,
    ...(reason ? { reason } : {}),
  });
  if (step.mode === 'heuristic') {
    context.append(heuristic());
    return;
  }
  const { scenario } = state;
  const started = context.clock.monotonicMs();
  const cap = scenario.memory.claims_max_tokens;
  const outcome = await askStructured(
    {
      what: `the claims of ${step.agent}`,
      model: step.model,
      fallbackModels: fallbacksOf(state, step.model),
      messages: step.messages,
      schema: claimsAnswerSchema(step.answerIds, cap),
      jsonSchema: claimsJsonSchema(step.answerIds, cap),
      maxTokens: cap,
      contextWindow: scenario.model_options.context_window,
      temperature: 0.1,
      seedOf: (attempt) =>
        derivedSeed(
          scenario.seed,
          `claims:round-${step.round}:${step.agent}${attempt > 1 ? `:attempt-${attempt}` : ''}`,
        ),
      policy: retryPolicyOf(scenario.reliability),
      marginTokens: scenario.context.margin_tokens,
    },
    context,
  );
  const measured = {
    model: outcome.model,
    ...recordedTokens(outcome.usage),
    realMs: Math.round(context.clock.monotonicMs() - started),
    attempts: outcome.attempts,
    ...(outcome.problems.length > 0 ? { problems: outcome.problems } : {}),
  };
  if (outcome.value) {
    const { claims, unverified } = verifiedClaims(outcome.value, statement?.text ?? '');
    if (unverified > 0) {
      context.logger.warn(
        { agent: step.agent, round: step.round, unverified },
        'claims not found in the statement were dropped',
      );
    }
    context.append({
      ...base,
      source: 'model',
      claims,
      ...measured,
      ...(unverified > 0 ? { unverified } : {}),
    });
    return;
  }
  // An unusable answer or a failed call still leaves the ledger something to go on; the event says so.
  const reason = outcome.callFailed
    ? `the extraction call failed: ${outcome.callFailed}`
    : (outcome.reason ?? 'unusable answer');
  context.logger.warn(
    { agent: step.agent, round: step.round, reason },
    'claims extraction fell back to key sentences',
  );
  context.append({ ...heuristic(reason), ...measured });
}

async function summarise(
  step: Extract<KnockoutStep, { kind: 'summarise' }>,
  state: KnockoutState,
  context: StepContext,
) {
  const { scenario } = state;
  context.notify({ type: 'summary-start', throughRound: step.throughRound, model: step.model });
  const started = context.clock.monotonicMs();
  try {
    const { result, model, usage } = await call(
      state,
      context,
      {
        model: step.model,
        messages: step.messages,
        maxTokens: scenario.context.summary_max_tokens,
        contextWindow: scenario.model_options.context_window,
        temperature: 0.3,
        seed: derivedSeed(scenario.seed, `summary:through-round-${step.throughRound}`),
      },
      'the running summary',
      { fallbackModels: fallbacksOf(state, step.model) },
    );
    context.append({
      type: 'summary',
      throughRound: step.throughRound,
      text: result.text.trim(),
      model,
      ...recordedTokens(usage),
      realMs: Math.round(context.clock.monotonicMs() - started),
    });
  } catch (error) {
    if (!(error instanceof ModelCallFailed)) throw error;
    // The full text is kept; the planner goes on without a summary and tries again at the next step.
    context.logger.warn({ throughRound: step.throughRound, error: error.message }, 'summary failed');
    context.append({ type: 'step-failed', step: 'summary', round: step.throughRound, reason: error.message });
  }
}
