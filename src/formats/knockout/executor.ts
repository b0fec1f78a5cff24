/** Carries out one planned knockout step: model calls, then the step's events. */
import { promptChars } from '../../agents/prompts.js';
import { mapConcurrent } from '../../core/concurrency.js';
import type { Evaluation, VoteCastEvent } from '../../core/events.js';
import type { StepContext } from '../../core/format.js';
import { weightedTotal } from '../../judging/criteria.js';
import { judgeAnswerJsonSchema, parseJudgeAnswer } from '../../judging/evaluation-schema.js';
import { isProviderError } from '../../llm/errors.js';
import type { ChatMessage } from '../../llm/provider.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
import { markIfCut, simulatedSeconds } from '../../timer/speaking-timer.js';
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

async function speak(
  step: Extract<KnockoutStep, { kind: 'speak' }>,
  state: KnockoutState,
  context: StepContext,
) {
  const { scenario } = state;
  context.notify({
    type: 'turn-start',
    round: step.round,
    agent: step.agent,
    position: step.position,
    model: step.model,
    tokenLimit: step.tokenLimit,
  });
  const started = context.clock.monotonicMs();
  const result = await context.provider.chat(
    {
      model: step.model,
      messages: step.messages,
      maxTokens: step.tokenLimit,
      contextWindow: scenario.model_options.context_window,
      temperature: step.temperature,
      seed: derivedSeed(scenario.seed, `turn:round-${step.round}:${step.agent}`),
    },
    {
      signal: context.signal,
      onDelta: (text) => context.notify({ type: 'turn-delta', round: step.round, agent: step.agent, text }),
    },
  );
  const truncated = result.stopReason === 'length';
  context.append({
    type: 'turn-end',
    round: step.round,
    agent: step.agent,
    position: step.position,
    model: step.model,
    text: markIfCut(result.text, truncated),
    promptTokens: result.promptTokens,
    promptChars: promptChars(step.messages),
    outputTokens: result.outputTokens,
    simulatedSeconds:
      Math.round(
        simulatedSeconds(result.outputTokens, {
          secondsPerSide: scenario.timer.seconds_per_side,
          tokensPerSecond: scenario.timer.tokens_per_second,
        }) * 100,
      ) / 100,
    truncated,
    realMs: Math.round(context.clock.monotonicMs() - started),
  });
}

async function judge(
  step: Extract<KnockoutStep, { kind: 'judge' }>,
  state: KnockoutState,
  context: StepContext,
) {
  const round = state.rounds.find((candidate) => candidate.number === step.round);
  const debater = round?.debater ?? state.currentDebater;
  context.notify({ type: 'judging-start', round: step.round, judges: step.judges, debater });
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
  let promptTokens = 0;
  let outputTokens = 0;
  let reason = '';
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    try {
      const result = await context.provider.chat(
        {
          model: judgeAgent.model,
          messages,
          maxTokens: scenario.judging.max_tokens,
          contextWindow: scenario.model_options.context_window,
          temperature: judgeAgent.temperature ?? scenario.model_options.temperature,
          seed: derivedSeed(scenario.seed, `vote:round-${round}:${name}:attempt-${attempt}`),
          jsonSchema: judgeAnswerJsonSchema(criteria),
        },
        { signal: context.signal },
      );
      if (attempt === 1) promptTokens = result.promptTokens;
      outputTokens += result.outputTokens;
      const parsed = parseJudgeAnswer(result.text, criteria);
      if (parsed.ok) {
        const evaluation: Evaluation = {
          round_number: round,
          position_y_performance: parsed.answer.position_y_performance,
          total_score: weightedTotal(parsed.answer.position_y_performance, criteria),
          comments: parsed.answer.comments,
          continue_vote: parsed.answer.continue_vote,
        };
        return voteEvent({ evaluation, abstained: false, attempts: attempt });
      }
      reason = `invalid answer: ${parsed.problems}`;
      context.notify({ type: 'judge-retry', round, judge: name, reason });
      context.logger.warn(
        { judge: name, round, attempt, problems: parsed.problems },
        'judge answer rejected',
      );
      messages = [
        ...baseMessages,
        { role: 'assistant', content: result.text },
        {
          role: 'user',
          content: `That answer cannot be used (${parsed.problems}). Reply again with only the JSON object in the required format.`,
        },
      ];
    } catch (error) {
      if (!isProviderError(error) || error.kind === 'cancelled') throw error;
      reason = `model call failed: ${error.message}`;
      context.logger.warn(
        { judge: name, round, error: error.message },
        'judge call failed; the judge abstains',
      );
      break;
    }
  }
  return voteEvent({ evaluation: null, abstained: true, abstainReason: reason, attempts: 2 });

  function voteEvent(
    outcome: Pick<VoteCastEvent, 'evaluation' | 'abstained' | 'attempts'> & { abstainReason?: string },
  ): Omit<VoteCastEvent, 'seq' | 'at'> {
    return {
      type: 'vote-cast',
      round,
      judge: name,
      model: judgeAgent?.model ?? '',
      ...outcome,
      promptTokens,
      promptChars: promptChars(baseMessages),
      outputTokens,
      realMs: Math.round(context.clock.monotonicMs() - started),
    };
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
  const result = await context.provider.chat(
    {
      model: step.model,
      messages: step.messages,
      maxTokens: scenario.context.summary_max_tokens,
      contextWindow: scenario.model_options.context_window,
      temperature: 0.3,
      seed: derivedSeed(scenario.seed, `summary:through-round-${step.throughRound}`),
    },
    { signal: context.signal },
  );
  context.append({
    type: 'summary',
    throughRound: step.throughRound,
    text: result.text.trim(),
    model: step.model,
    promptTokens: result.promptTokens,
    promptChars: promptChars(step.messages),
    outputTokens: result.outputTokens,
    realMs: Math.round(context.clock.monotonicMs() - started),
  });
}
