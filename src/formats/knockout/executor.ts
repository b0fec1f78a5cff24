/** Carries out one planned knockout step: model calls (retried, with fallbacks), then the step's events. */

import { claimsJsonSchema, heuristicClaims, parseClaims } from '../../agents/claim-extraction.js';
import { promptChars } from '../../agents/prompts.js';
import { fittedChat } from '../../context/fitted-call.js';
import { mapConcurrent } from '../../core/concurrency.js';
import type { Evaluation, VoteCastEvent } from '../../core/events.js';
import { voteContradictsScores, weightedTotal } from '../../judging/criteria.js';
import { judgeAnswerJsonSchema, parseJudgeAnswer } from '../../judging/evaluation-schema.js';
import { addUsage, NO_USAGE, recordedTokens } from '../../llm/call-usage.js';
import type { ChatMessage, ChatRequest } from '../../llm/provider.js';
import { ModelCallFailed, retryPolicyOf, type SafeCallResult } from '../../llm/safe-call.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
import { markIfCut, simulatedSeconds } from '../../timer/speaking-timer.js';
import type { StepContext } from '../format-definition.js';
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
        maxTokens: step.tokenLimit,
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
    const truncated = result.stopReason === 'length';
    const thinkingTokens = result.thinkingTokens ?? 0;
    const timer = {
      secondsPerSide: scenario.timer.seconds_per_side,
      tokensPerSecond: scenario.timer.tokens_per_second,
    };
    context.append({
      ...base,
      model,
      text: markIfCut(result.text, truncated),
      ...recordedTokens(usage),
      ...(thinkingTokens > 0 ? { thinkingTokens } : {}),
      // Thinking is not speech: only the spoken tokens use speaking time.
      simulatedSeconds: Math.round(simulatedSeconds(result.outputTokens - thinkingTokens, timer) * 100) / 100,
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
  const baseMessages = judgeMessages(state, judgeAgent, round, debater);
  const started = context.clock.monotonicMs();
  let messages: ChatMessage[] = baseMessages;
  let usage = NO_USAGE;
  let calls = 0;
  let model = judgeAgent.model;
  let fallbackFrom: string | undefined;
  let reason = '';
  const vote = (
    outcome: Pick<VoteCastEvent, 'evaluation' | 'abstained'> & {
      abstainReason?: string;
      callFailed?: boolean;
    },
  ): Omit<VoteCastEvent, 'seq' | 'at'> => ({
    type: 'vote-cast',
    round,
    judge: name,
    model,
    ...outcome,
    ...(fallbackFrom ? { fallbackFrom } : {}),
    attempts: calls,
    ...recordedTokens(usage),
    realMs: Math.round(context.clock.monotonicMs() - started),
  });
  // One answer, and one repair attempt that shows the judge its unusable answer.
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    let answer: SafeCallResult;
    try {
      answer = await call(
        state,
        context,
        {
          model: judgeAgent.model,
          messages,
          maxTokens: scenario.judging.max_tokens,
          contextWindow: scenario.model_options.context_window,
          // A judge's own temperature (low by default), not the one it debates at.
          temperature: scenario.judging.temperature,
          seed: derivedSeed(scenario.seed, `vote:round-${round}:${name}:attempt-${attempt}`),
          jsonSchema: judgeAnswerJsonSchema(criteria),
          ...(judgeAgent.think ? { think: true } : {}),
        },
        `${name}'s evaluation`,
        { fallbackModels: judgeAgent.fallback_models },
      );
    } catch (error) {
      if (!(error instanceof ModelCallFailed)) throw error;
      calls += error.attempts;
      usage = addUsage(usage, error.usage);
      context.logger.warn(
        { judge: name, round, error: error.message },
        'judge call failed; the judge abstains',
      );
      return vote({
        evaluation: null,
        abstained: true,
        abstainReason: `model call failed: ${error.message}`,
        callFailed: true,
      });
    }
    calls += answer.attempts;
    model = answer.model;
    fallbackFrom = answer.fallbackFrom;
    usage = addUsage(usage, answer.usage);
    const parsed = parseJudgeAnswer(answer.result.text, criteria);
    if (parsed.ok) {
      const total = weightedTotal(parsed.answer.position_y_performance, criteria);
      const evaluation: Evaluation = {
        round_number: round,
        position_y_performance: parsed.answer.position_y_performance,
        total_score: total,
        comments: parsed.answer.comments,
        continue_vote: parsed.answer.continue_vote,
        new_arguments: parsed.answer.new_arguments,
        ...(voteContradictsScores(total, parsed.answer.continue_vote) ? { inconsistent: true } : {}),
      };
      return vote({ evaluation, abstained: false });
    }
    reason = `invalid answer: ${parsed.problems}`;
    context.notify({ type: 'judge-retry', round, judge: name, reason });
    context.logger.warn({ judge: name, round, attempt, problems: parsed.problems }, 'judge answer rejected');
    // The repair names what was wrong without repeating the answer, so it fits wherever the first prompt did.
    messages = [
      ...baseMessages,
      {
        role: 'user',
        content: `Your previous answer could not be used (${parsed.problems.slice(0, 300)}). Reply again with only the JSON object in the required format.`,
      },
    ];
  }
  return vote({ evaluation: null, abstained: true, abstainReason: reason });
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
  try {
    const answer = await call(
      state,
      context,
      {
        model: step.model,
        messages: step.messages,
        maxTokens: scenario.memory.claims_max_tokens,
        contextWindow: scenario.model_options.context_window,
        temperature: 0.1,
        seed: derivedSeed(scenario.seed, `claims:round-${step.round}:${step.agent}`),
        jsonSchema: claimsJsonSchema(),
      },
      `the claims of ${step.agent}`,
      { fallbackModels: fallbacksOf(state, step.model) },
    );
    const parsed = parseClaims(answer.result.text, new Set(step.answerIds));
    const measured = {
      model: answer.model,
      ...recordedTokens(answer.usage),
      realMs: Math.round(context.clock.monotonicMs() - started),
      attempts: answer.attempts,
    };
    if (parsed.ok) {
      context.append({ ...base, source: 'model', claims: parsed.claims, ...measured });
      return;
    }
    // An unusable answer still leaves the ledger something to go on; the event says so.
    context.logger.warn(
      { agent: step.agent, round: step.round, problem: parsed.problem },
      'claims answer unusable',
    );
    context.append({ ...heuristic(`unusable answer: ${parsed.problem}`), ...measured });
  } catch (error) {
    if (!(error instanceof ModelCallFailed)) throw error;
    context.logger.warn(
      { agent: step.agent, round: step.round, error: error.message },
      'claims extraction failed',
    );
    context.append({
      ...heuristic(`the extraction call failed: ${error.last.kind}`),
      attempts: error.attempts,
    });
  }
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
