/**
 * The model calls of a knockout round as the planner makes them: each speaker's statement, the
 * claims extraction after each statement, and each judge's evaluation. The planner plans them one
 * by one; the running summary also asks for the calls of a round not yet played, to fold the
 * transcript before it instead of in its middle.
 */
import { answerableClaims } from '../../agents/claim-extraction.js';
import type { KnockoutScenario } from '../../config/scenario.js';
import type { AgentConfig } from '../../config/scenario-schema.js';
import { PERSON_MODEL } from '../../core/person-seat.js';
import { tokenLimitFor } from '../../timer/speaking-timer.js';
import { judgeMessages } from './judge-prompts.js';
import { claimsMessages, debaterMessages } from './knockout-prompts.js';
import type { PlannedCall } from './prompt-fits.js';
import type { KnockoutState } from './state.js';
import { xAgentOf, yAgentNames } from './state.js';
import { keepsRoundLimit, roundLimitMs } from './thresholds.js';

/** The positions in the order they speak in every round. */
export function speakingOrder(scenario: KnockoutScenario): Array<'X' | 'Y'> {
  return scenario.debate.starting_position === 'X' ? ['X', 'Y'] : ['Y', 'X'];
}

/** The `num_predict` of a statement: the agent's cap or the speaking time, whichever is smaller. */
export function statementTokenLimit(scenario: KnockoutScenario): number {
  return tokenLimitFor(scenario.model_options.max_tokens, 0, {
    secondsPerSide: scenario.timer.seconds_per_side,
    tokensPerSecond: scenario.timer.tokens_per_second,
  });
}

/** Who speaks for `position` in a round whose Position Y debater is `debater`. */
export function speakerOf(scenario: KnockoutScenario, position: 'X' | 'Y', debater: string): AgentConfig {
  const agent =
    position === 'X' ? xAgentOf(scenario) : scenario.agents.find((candidate) => candidate.name === debater);
  if (!agent) throw new Error(`debater ${debater} is not in the scenario`);
  return agent;
}

/** A statement in `round` by whoever speaks for `position`. */
export function statementCall(
  state: KnockoutState,
  position: 'X' | 'Y',
  round: number,
  debater: string,
): PlannedCall & { agent: AgentConfig } {
  const agent = speakerOf(state.scenario, position, debater);
  const tokenLimit = lateRoundTokenLimit(state, round, agent.model, statementTokenLimit(state.scenario));
  return {
    agent,
    // A person's statements are theirs, recorded under the person's name for a model.
    model: agent.human ? PERSON_MODEL : agent.model,
    tokenLimit,
    messages: debaterMessages(state, agent, round, tokenLimit),
  };
}

/** The judges of a round: the Position Y agents who are not debating, in the scenario's order. */
export function judgesOf(scenario: KnockoutScenario, debater: string): string[] {
  return yAgentNames(scenario).filter((name) => name !== debater);
}

/**
 * The model that extracts the claims of the statement at `index` of the speaking order: the
 * configured one, else the model of whoever comes next (the other speaker after the first
 * statement, the first judge after the second), which is loaded anyway.
 */
export function claimsModel(
  scenario: KnockoutScenario,
  index: number,
  position: 'X' | 'Y',
  debater: string,
  spokenModel: string,
): string {
  if (scenario.memory.claims_model) return scenario.memory.claims_model;
  const judge = judgesOf(scenario, debater)[0];
  const next =
    index === 0
      ? speakerOf(scenario, position === 'X' ? 'Y' : 'X', debater).model
      : scenario.agents.find((candidate) => candidate.name === judge)?.model;
  return next ?? spokenModel;
}

/** The claims extraction of `agent`'s statement in `round`, and the ids its claims may answer. */
export function claimsCall(
  state: KnockoutState,
  round: number,
  agent: string,
  position: 'X' | 'Y',
  model: string,
): PlannedCall & { answerIds: string[] } {
  const { scenario } = state;
  return {
    model,
    tokenLimit: scenario.memory.claims_max_tokens,
    messages: scenario.memory.claims === 'model' ? claimsMessages(state, round, agent, position, model) : [],
    answerIds: answerableClaims(state.ledger.filter((claim) => claim.position !== position)).map(
      (claim) => claim.id,
    ),
  };
}

/** One judge's evaluation of `debater` in `round`. */
export function judgeCall(state: KnockoutState, name: string, round: number, debater: string): PlannedCall {
  const judge = state.scenario.agents.find((candidate) => candidate.name === name);
  if (!judge) throw new Error(`judge ${name} is not in the scenario`);
  return {
    model: judge.model,
    tokenLimit: state.scenario.judging.max_tokens,
    messages: judgeMessages(state, judge, round, debater),
  };
}

/** The shortest statement a round running late asks for, in tokens (about 90 words). */
export const SHORTEST_STATEMENT_TOKENS = 120;

/**
 * Tokens per ms earlier statements were written at (their prompts read too, a model's loading
 * left out), of `model` when given, else of every model; null with nothing measured.
 */
function statementRate(state: KnockoutState, model?: string): number | null {
  let tokens = 0;
  let ms = 0;
  for (const round of state.rounds) {
    for (const statement of round.statements) {
      if (model !== undefined && statement.model !== model) continue;
      const writing = statement.realMs - (statement.loadMs ?? 0);
      if (statement.degraded || writing <= 0 || statement.model === PERSON_MODEL) continue;
      tokens += statement.outputTokens - (statement.thinkingTokens ?? 0);
      ms += writing;
    }
  }
  return tokens > 0 && ms > 0 ? tokens / ms : null;
}

/** The time models spent loading during round `number`'s statements: the round's clock leaves it out. */
export function roundLoadMs(state: KnockoutState, number: number): number {
  const round = state.rounds.find((candidate) => candidate.number === number);
  return round?.statements.reduce((sum, statement) => sum + (statement.loadMs ?? 0), 0) ?? 0;
}

/** What the last finished round spent besides its speeches: extractions, judging, a fold. */
function restOfRoundMs(state: KnockoutState): number {
  const last = state.rounds.filter((round) => round.end).at(-1);
  if (!last?.end) return 0;
  const speaking = last.statements.reduce((sum, statement) => sum + statement.realMs, 0);
  return Math.max(0, last.end.realMs - speaking);
}

/**
 * A statement's token limit when the scenario keeps its round time limit (`round_time_limit.mode:
 * keep`): the time the round has left, less what the last round spent besides its speeches, shared
 * by the speeches still to come, at the rate this model wrote its earlier statements (or, for a
 * model not heard yet, as in round 1, the rate of the statements heard so far). The time models
 * spent loading is not the round's: it is left out of the clock and of the rate, and reported apart.
 * Never more than `normal`, never less than SHORTEST_STATEMENT_TOKENS; with nothing measured yet
 * (round 1's first statement) it is `normal`. A pure function of the state, so a resumed run plans
 * the same limits.
 */
export function lateRoundTokenLimit(
  state: KnockoutState,
  round: number,
  model: string,
  normal: number,
): number {
  const { scenario } = state;
  if (!keepsRoundLimit(scenario) || state.roundClockMs === null) return normal;
  const rate = statementRate(state, model) ?? statementRate(state);
  if (rate === null) return normal;
  const spoken = state.rounds.find((candidate) => candidate.number === round)?.statements.length ?? 0;
  const left = Math.max(1, speakingOrder(scenario).length - spoken);
  const elapsed = Math.max(0, state.activeMs - state.roundClockMs - roundLoadMs(state, round));
  const available = roundLimitMs(scenario) - elapsed - restOfRoundMs(state);
  const tokens = Math.floor((available / left) * rate);
  return Math.max(Math.min(normal, SHORTEST_STATEMENT_TOKENS), Math.min(normal, tokens));
}
