/**
 * The knockout planner: the next step is a pure function of the run's state. Resume is "fold the
 * log, ask the planner"; a step in flight when the process died is simply planned again.
 */
import { answerableClaims } from '../../agents/claim-extraction.js';
import { promptChars } from '../../agents/prompts.js';
import { ContextWindowError } from '../../context/context-window-error.js';
import { calibrate, estimateTokens, promptBudget } from '../../context/token-estimate.js';
import { checkScenarioLimits } from '../../core/stop-conditions.js';
import { tallyVotes, voidTally } from '../../judging/tally.js';
import type { ChatMessage } from '../../llm/provider.js';
import { decideRotation } from '../../rotation/rotation-policy.js';
import { tokenLimitFor } from '../../timer/speaking-timer.js';
import type { DoneStep } from '../format-definition.js';
import {
  claimsMessages,
  commentaryMessages,
  debaterMessages,
  judgeMessages,
  summaryMessages,
} from './knockout-prompts.js';
import type { KnockoutState, RoundRecord } from './state.js';
import { summariserModel, xAgentOf, yAgentNames } from './state.js';
import type { KnockoutStep } from './steps.js';
import { buildTransition } from './transition.js';

export function nextKnockoutStep(state: KnockoutState): KnockoutStep | DoneStep {
  const { scenario } = state;
  if (state.end) return { kind: 'done', status: state.end.status, stopReason: state.end.stopReason };
  const last = state.rounds.at(-1);
  // The commentator speaks once a round is decided, before anything else happens.
  if (
    last?.end &&
    scenario.commentary &&
    !state.commentary.some((commentary) => commentary.round === last.number)
  ) {
    const messages = commentaryMessages(state, last.number);
    if (fits(state, scenario.commentary.model, messages, scenario.commentary.max_tokens))
      return { kind: 'comment', round: last.number, model: scenario.commentary.model, messages };
  }
  if (last?.end && last.number >= scenario.debate.rounds) {
    return { kind: 'done', status: 'completed', stopReason: 'max_rounds' };
  }
  const limit = checkScenarioLimits(state, scenario);
  if (limit) return { kind: 'done', ...limit };
  if (last?.end && scenario.stop.judge_early_stop && noNewArguments(state, 2)) {
    return { kind: 'done', status: 'completed', stopReason: 'judge_early_stop' };
  }
  const round: RoundRecord =
    last && !last.end
      ? last
      : {
          number: (last?.number ?? 0) + 1,
          debater: state.currentDebater,
          statements: [],
          votes: [],
          end: null,
        };

  const start = scenario.debate.starting_position;
  const order: Array<'X' | 'Y'> = start === 'X' ? ['X', 'Y'] : ['Y', 'X'];
  for (const [index, position] of order.entries()) {
    const spoken = round.statements.find((statement) => statement.position === position);
    if (spoken) {
      // Each statement's claims go into the ledger before anyone answers it.
      const mode = scenario.memory.claims;
      const extracted = state.claims.some(
        (claims) => claims.round === round.number && claims.agent === spoken.agent,
      );
      if (mode === 'off' || spoken.degraded || extracted) continue;
      const nextModel =
        scenario.memory.claims_model ??
        (index === 0
          ? position === 'X'
            ? scenario.agents.find((candidate) => candidate.name === round.debater)?.model
            : xAgentOf(scenario).model
          : scenario.agents.find(
              (candidate) => candidate.position === 'Y' && candidate.name !== round.debater,
            )?.model) ??
        spoken.model;
      const messages = mode === 'model' ? claimsMessages(state, round.number, spoken.agent, position) : [];
      if (mode === 'model' && !fits(state, nextModel, messages, scenario.memory.claims_max_tokens))
        return summariseOrFail(state, round.number);
      return {
        kind: 'claims',
        round: round.number,
        agent: spoken.agent,
        position,
        mode,
        model: nextModel,
        messages,
        answerIds: answerableClaims(state.ledger.filter((claim) => claim.position !== position)).map(
          (claim) => claim.id,
        ),
      };
    }
    const agent =
      position === 'X'
        ? xAgentOf(scenario)
        : scenario.agents.find((candidate) => candidate.name === round.debater);
    if (!agent) throw new Error(`debater ${round.debater} is not in the scenario`);
    const tokenLimit = tokenLimitFor(scenario.model_options.max_tokens, 0, {
      secondsPerSide: scenario.timer.seconds_per_side,
      tokensPerSecond: scenario.timer.tokens_per_second,
    });
    const messages = debaterMessages(state, agent, round.number, tokenLimit);
    if (!fits(state, agent.model, messages, tokenLimit)) return summariseOrFail(state, round.number);
    return {
      kind: 'speak',
      round: round.number,
      agent: agent.name,
      position,
      model: agent.model,
      temperature: agent.temperature ?? scenario.model_options.temperature,
      tokenLimit,
      messages,
    };
  }

  const judges = yAgentNames(scenario).filter((name) => name !== round.debater);
  // An emergency response is not a performance: the round is not judged and its vote is void.
  const debaterFailed = round.statements.some(
    (statement) => statement.position === 'Y' && statement.degraded,
  );
  const pending = debaterFailed
    ? []
    : judges.filter((judge) => !round.votes.some((vote) => vote.judge === judge));
  if (pending.length > 0) {
    for (const name of pending) {
      const judge = scenario.agents.find((candidate) => candidate.name === name);
      if (!judge) continue;
      const messages = judgeMessages(state, judge, round.number, round.debater);
      if (!fits(state, judge.model, messages, scenario.judging.max_tokens))
        return summariseOrFail(state, round.number);
    }
    return { kind: 'judge', round: round.number, judges: pending };
  }

  const evaluations = judges.map(
    (judge) => round.votes.find((vote) => vote.judge === judge)?.evaluation ?? null,
  );
  // With most of the panel unreachable, whatever the rest decided would rest on the failure.
  const judgesFailed = round.votes.filter((vote) => vote.callFailed).length * 2 > judges.length;
  const isVoid = debaterFailed || judgesFailed;
  const tally = isVoid ? voidTally(evaluations) : tallyVotes(evaluations, scenario.rotation.threshold);
  const rotationsSoFar = state.rounds.filter((candidate) => candidate.end?.rotation).length;
  const isLastRound = round.number >= scenario.debate.rounds;
  const decided = decideRotation({
    decision: tally.decision,
    roundsRemain: !isLastRound,
    round: round.number,
    current: round.debater,
    yAgents: yAgentNames(scenario),
    debated: new Set(state.debated),
    rotationsSoFar,
    limit: scenario.rotation.limit,
    seed: scenario.seed,
  });
  const { outcome, rotation } = isVoid ? { outcome: 'void' as const, rotation: null } : decided;
  const transition = buildTransition(
    round,
    tally,
    outcome,
    rotation,
    rotation?.to ?? round.debater,
    xAgentOf(scenario).name,
    isLastRound,
    scenario.memory.claims === 'off' ? null : state.ledger,
  );
  return {
    kind: 'decide',
    event: {
      type: 'round-end',
      round: round.number,
      debater: round.debater,
      tally,
      outcome,
      rotation,
      transition,
    },
  };
}

/**
 * True when each of the last `rounds` rounds brought no new substantive arguments: measured on the
 * claims ledger when a model keeps it (no new claim in the round), else on the judges' opinion (most
 * judges who answered said so). The judges' opinion is kept beside the ledger's in the transcript.
 */
function noNewArguments(state: KnockoutState, rounds: number): boolean {
  const finished = state.rounds.filter((round) => round.end);
  if (finished.length < rounds) return false;
  if (state.scenario.memory.claims === 'model') {
    return finished
      .slice(-rounds)
      .every(
        (round) =>
          state.claims.some((claims) => claims.round === round.number && claims.source === 'model') &&
          !state.ledger.some((claim) => claim.round === round.number && claim.kind === 'new'),
      );
  }
  return finished.slice(-rounds).every((round) => {
    const answers = round.votes.flatMap((vote) => (vote.evaluation ? [vote.evaluation.new_arguments] : []));
    const none = answers.filter((answer) => answer === false).length;
    return answers.length > 0 && none * 2 > answers.length;
  });
}

function fits(state: KnockoutState, model: string, messages: ChatMessage[], tokenLimit: number): boolean {
  // After a failed summary the full text goes ahead as it is; the summary is tried again next step.
  if (state.summaryFailed) return true;
  // Calibrate only on rounds before the current one, so concurrent judges finishing in any order,
  // or a resume in the middle of a round, cannot change what is planned.
  const current = state.rounds.at(-1)?.end
    ? (state.rounds.at(-1)?.number ?? 0) + 1
    : (state.rounds.at(-1)?.number ?? 1);
  const ratio = calibrate(state.promptSamples.filter((sample) => sample.round < current)).get(model);
  const estimate = estimateTokens(promptChars(messages), ratio);
  const { context_window: window } = state.scenario.model_options;
  return estimate <= promptBudget(window, tokenLimit, state.scenario.context.margin_tokens);
}

/**
 * Folds old rounds into the running summary in one large step (all finished rounds but the most
 * recent), so the transcript's prefix stays stable for several rounds between summaries.
 */
function summariseOrFail(state: KnockoutState, currentRound: number): KnockoutStep | DoneStep {
  const covered = state.summaries.at(-1)?.throughRound ?? 0;
  const finished = state.rounds
    .filter((round) => round.end && round.number < currentRound)
    .map((round) => round.number);
  const lastFinished = finished.at(-1) ?? 0;
  const target = lastFinished - 1 > covered ? lastFinished - 1 : lastFinished > covered ? lastFinished : null;
  if (target === null) {
    // A setting, not a failed model: the run stops with exit 3 and says which one.
    throw new ContextWindowError(
      `the context window is too small: one round does not fit in ${state.scenario.model_options.context_window} tokens; raise model_options.context_window (and the server's own window: llama-server -c, vLLM --max-model-len) or lower model_options.max_tokens`,
    );
  }
  const model = summariserModel(state.scenario);
  // As many rounds as the summariser's own prompt can hold, at least one.
  let through = target;
  let messages = summaryMessages(state, through);
  while (through > covered + 1 && !fits(state, model, messages, state.scenario.context.summary_max_tokens)) {
    through -= 1;
    messages = summaryMessages(state, through);
  }
  return { kind: 'summarise', throughRound: through, model, messages };
}
