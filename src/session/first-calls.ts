/**
 * The first call of each call kind a scenario will make, built with the format's own prompt
 * builders from the state a new run starts in: the system message and the task are as the run
 * will send them, the debate so far is still empty. What cannot fit here cannot fit in the run,
 * whatever the debate adds (see call-kind-fits.ts).
 */

import { formalSides } from '../config/formal-sides.js';
import type { Scenario } from '../config/scenario.js';
import {
  type CouncilState,
  judgeMessages as councilJudgeMessages,
  DEBATING_ROLES,
  roundMessages,
} from '../formats/council/council-prompts.js';
import { type CritiqueState, proposalMessages } from '../formats/critique/critique-prompts.js';
import { designMessages, synthesisMessages } from '../formats/critique/synthesis-prompts.js';
import {
  type DuelState,
  debaterMessages as duelDebaterMessages,
  judgeMessages as duelJudgeMessages,
} from '../formats/duel/duel-prompts.js';
import { FORMAL_PLAN } from '../formats/formal/formal-plan.js';
import { type FormalState, statementMessages } from '../formats/formal/formal-prompts.js';
import { verdictMessages } from '../formats/formal/formal-verdict-prompts.js';
import { formatNamed } from '../formats/index.js';
import { judgeMessages as knockoutJudgeMessages } from '../formats/knockout/judge-prompts.js';
import {
  claimsMessages,
  debaterMessages as knockoutDebaterMessages,
} from '../formats/knockout/knockout-prompts.js';
import type { KnockoutState } from '../formats/knockout/state.js';
import { type PlannedQuestion, questionSetEvent, type TruthState } from '../formats/truth/truth-plan.js';
import {
  judgeQuestionMessages,
  debaterMessages as truthDebaterMessages,
  verdictMessages as truthVerdictMessages,
} from '../formats/truth/truth-prompts.js';
import type { ChatMessage } from '../llm/provider.js';

/** One call kind's first call. */
export interface FirstCall {
  /** What the prompt is for, in the words the run uses. */
  what: string;
  model: string;
  maxTokens: number;
  messages: ChatMessage[];
  /** Tokens kept free besides the answer's cap, where the format sets it. */
  marginTokens?: number;
}

/** The state a new run of `scenario` starts in, folded by its format. */
function startState(scenario: Scenario): unknown {
  const format = formatNamed(scenario.format);
  if (!format) return undefined;
  return format.fold(undefined, {
    type: 'run-start',
    seq: 1,
    at: new Date(0).toISOString(),
    runId: 'first-calls',
    format: scenario.format,
    scenario,
    engineVersion: '0',
  });
}

function duelCalls(state: DuelState): FirstCall[] {
  const { scenario } = state;
  return [
    ...(['a', 'b'] as const).map((side) => ({
      what: `${scenario.debaters[side].name}'s argument`,
      model: scenario.debaters[side].model,
      maxTokens: scenario.debater_max_tokens,
      messages: duelDebaterMessages(state, side, 1),
    })),
    {
      what: `${scenario.judge.name} (judgement)`,
      model: scenario.judge.model,
      maxTokens: scenario.judge_max_tokens,
      messages: duelJudgeMessages(state, 1),
    },
  ];
}

function critiqueCalls(state: CritiqueState): FirstCall[] {
  const { scenario } = state;
  const judge = { model: scenario.judge.model, maxTokens: scenario.judge_max_tokens };
  return [
    ...scenario.agents.map((agent) => ({
      what: `${agent.name}'s proposal`,
      model: agent.model,
      maxTokens: scenario.max_tokens,
      messages: proposalMessages(state, agent, 1),
    })),
    { what: `${scenario.judge.name}'s synthesis`, ...judge, messages: designMessages(state, 1) },
    { what: `${scenario.judge.name} (synthesis)`, ...judge, messages: synthesisMessages(state, 1, '') },
  ];
}

function councilCalls(state: CouncilState): FirstCall[] {
  const { scenario } = state;
  const models = scenario.participants as Record<string, { model: string }>;
  return [
    ...DEBATING_ROLES.map((role) => ({
      what: `${role} (round-1)`,
      model: models[role.toLowerCase()]?.model ?? scenario.participants.judge.model,
      maxTokens: scenario.max_tokens,
      messages: roundMessages(state, role, 1),
    })),
    {
      what: 'Judge (decision)',
      model: scenario.participants.judge.model,
      maxTokens: scenario.judge_max_tokens,
      messages: councilJudgeMessages(state, {}, new Date(0).toISOString().slice(0, 10)),
    },
  ];
}

function formalCalls(state: FormalState): FirstCall[] {
  const { scenario } = state;
  const sides = formalSides(scenario);
  // The first statement of each phase, as the plan orders them.
  const firsts = FORMAL_PLAN.filter(
    (item, index) => FORMAL_PLAN.findIndex((other) => other.phase === item.phase) === index,
  );
  return [
    ...firsts.map((item) => {
      const maxTokens =
        item.phase === 'preparation' ? scenario.preparation.max_tokens : scenario.model_options.max_tokens;
      return {
        what: `${sides[item.side].name}'s ${item.phase}`,
        model: sides[item.side].model,
        maxTokens,
        messages: statementMessages(state, item, maxTokens),
      };
    }),
    {
      what: 'Judge (verdict)',
      model: scenario.verdict.judge_model ?? formalSides(scenario).affirmative.model,
      maxTokens: scenario.verdict.max_tokens,
      messages: verdictMessages(state),
    },
  ];
}

function knockoutCalls(state: KnockoutState): FirstCall[] {
  const { scenario } = state;
  const margin = { marginTokens: scenario.context.margin_tokens };
  const x = scenario.agents.find((agent) => agent.position === 'X');
  const ys = scenario.agents.filter((agent) => agent.position === 'Y');
  const [debater, judge] = ys;
  const calls: FirstCall[] = [];
  for (const agent of [x, debater]) {
    if (!agent) continue;
    calls.push({
      what: `${agent.name}'s statement`,
      model: agent.model,
      maxTokens: scenario.model_options.max_tokens,
      messages: knockoutDebaterMessages(state, agent, 1, scenario.model_options.max_tokens),
      ...margin,
    });
  }
  if (judge && debater) {
    calls.push({
      what: `${judge.name}'s evaluation`,
      model: judge.model,
      maxTokens: scenario.judging.max_tokens,
      messages: knockoutJudgeMessages(state, judge, 1, debater.name),
      ...margin,
    });
  }
  if (x && scenario.memory.claims === 'model') {
    const model = scenario.memory.claims_model ?? x.model;
    calls.push({
      what: `the claims of ${x.name}`,
      model,
      maxTokens: scenario.memory.claims_max_tokens,
      messages: claimsMessages(state, 1, x.name, 'X', model),
      ...margin,
    });
  }
  return calls;
}

/** The length of what a truth question puts in every prompt about it. */
const questionChars = (question: PlannedQuestion) =>
  question.question.length + question.options.join('').length + (question.passage?.length ?? 0);

/** The first call of each of a truth run's call kinds, on its longest question. */
function truthCalls(state: TruthState): FirstCall[] {
  const { scenario } = state;
  const questions = (questionSetEvent(scenario).data.questions ?? []) as PlannedQuestion[];
  const question = questions.reduce<PlannedQuestion | undefined>(
    (longest, item) => (longest && questionChars(longest) >= questionChars(item) ? longest : item),
    undefined,
  );
  if (!question) return [];
  const debater = (side: 'a' | 'b') => scenario.debaters[side];
  const conditions = scenario.conditions;
  const calls: FirstCall[] = [];
  if (conditions.includes('debate')) {
    calls.push(
      ...(['a', 'b'] as const).map((side) => ({
        what: `${debater(side).name}'s debate statement`,
        model: debater(side).model,
        maxTokens: scenario.debater_max_tokens,
        messages: truthDebaterMessages(state, question, 'debate', side, side === 'a' ? 1 : 2),
      })),
    );
  }
  if (conditions.includes('consultancy')) {
    const consultant = debater(question.consultant);
    calls.push(
      {
        what: `${consultant.name}'s consultancy statement`,
        model: consultant.model,
        maxTokens: scenario.debater_max_tokens,
        messages: truthDebaterMessages(state, question, 'consultancy', question.consultant, 1),
      },
      {
        what: `${scenario.judge.name}'s question to the consultant`,
        model: scenario.judge.model,
        maxTokens: Math.min(scenario.judge_max_tokens, 120),
        messages: judgeQuestionMessages(state, question),
      },
    );
  }
  calls.push(
    ...conditions.map((condition) => ({
      what: `${scenario.judge.name}'s verdict (${condition})`,
      model: scenario.judge.model,
      maxTokens: scenario.judge_max_tokens,
      // The second reading, in the other order, is as long.
      messages: truthVerdictMessages(state, question, condition, 1),
    })),
  );
  return calls;
}

/** The first call of each call kind of `scenario`. */
export function firstCalls(scenario: Scenario): FirstCall[] {
  const state = startState(scenario);
  if (state === undefined) return [];
  switch (scenario.format) {
    case 'duel':
      return duelCalls(state as DuelState);
    case 'critique':
      return critiqueCalls(state as CritiqueState);
    case 'council':
      return councilCalls(state as CouncilState);
    case 'formal':
      return formalCalls(state as FormalState);
    case 'knockout':
      return knockoutCalls(state as KnockoutState);
    case 'truth':
      return truthCalls(state as TruthState);
    default:
      return [];
  }
}
