/**
 * The knockout planner: the next step is a pure function of the run's state. Resume is "fold the
 * log, ask the planner"; a step in flight when the process died is simply planned again.
 */
import { checkScenarioLimits } from '../../core/stop-conditions.js';
import { tallyVotes, voidTally } from '../../judging/tally.js';
import { decideRotation } from '../../rotation/rotation-policy.js';
import type { DoneStep } from '../format-definition.js';
import { foldBeforeNextRound, foldInRound } from './fold-plan.js';
import { commentaryMessages } from './knockout-prompts.js';
import { fits } from './prompt-fits.js';
import { claimsCall, claimsModel, judgeCall, judgesOf, speakingOrder, statementCall } from './round-calls.js';
import type { KnockoutState, RoundRecord } from './state.js';
import { xAgentOf, yAgentNames } from './state.js';
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
    const call = {
      model: scenario.commentary.model,
      messages: commentaryMessages(state, last.number),
      tokenLimit: scenario.commentary.max_tokens,
    };
    if (fits(state, call))
      return { kind: 'comment', round: last.number, model: call.model, messages: call.messages };
  }
  if (last?.end && last.number >= scenario.debate.rounds) {
    return { kind: 'done', status: 'completed', stopReason: 'max_rounds' };
  }
  const limit = checkScenarioLimits(state, scenario);
  if (limit) return { kind: 'done', ...limit };
  if (last?.end && scenario.stop.judge_early_stop && noNewArguments(state, 2)) {
    return { kind: 'done', status: 'completed', stopReason: 'judge_early_stop' };
  }
  // Between rounds: fold the transcript now if the next round would not fit, so that both speakers
  // and the judges of a round read the same summary.
  const fold = foldBeforeNextRound(state);
  if (fold) return fold;
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

  for (const [index, position] of speakingOrder(scenario).entries()) {
    const spoken = round.statements.find((statement) => statement.position === position);
    if (spoken) {
      // Each statement's claims go into the ledger before anyone answers it.
      const mode = scenario.memory.claims;
      const extracted = state.claims.some(
        (claims) => claims.round === round.number && claims.agent === spoken.agent,
      );
      if (mode === 'off' || spoken.degraded || extracted) continue;
      const model = claimsModel(scenario, index, position, round.debater, spoken.model);
      const call = claimsCall(state, round.number, spoken.agent, position, model);
      if (mode === 'model' && !fits(state, call)) {
        return foldInRound(state, round.number, call, `the claims of ${spoken.agent}`);
      }
      return {
        kind: 'claims',
        round: round.number,
        agent: spoken.agent,
        position,
        mode,
        model,
        messages: call.messages,
        answerIds: call.answerIds,
      };
    }
    const call = statementCall(state, position, round.number, round.debater);
    if (!fits(state, call)) return foldInRound(state, round.number, call, `${call.agent.name}'s statement`);
    return {
      kind: 'speak',
      round: round.number,
      agent: call.agent.name,
      position,
      model: call.model,
      temperature: call.agent.temperature ?? scenario.model_options.temperature,
      tokenLimit: call.tokenLimit,
      messages: call.messages,
    };
  }

  const judges = judgesOf(scenario, round.debater);
  // An emergency response is not a performance: the round is not judged and its vote is void.
  const debaterFailed = round.statements.some(
    (statement) => statement.position === 'Y' && statement.degraded,
  );
  const pending = debaterFailed
    ? []
    : judges.filter((judge) => !round.votes.some((vote) => vote.judge === judge));
  if (pending.length > 0) {
    for (const name of pending) {
      const call = judgeCall(state, name, round.number, round.debater);
      if (!fits(state, call)) return foldInRound(state, round.number, call, `${name}'s evaluation`);
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
