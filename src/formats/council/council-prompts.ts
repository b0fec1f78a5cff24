/** The council's prompts: the request and earlier rounds first (shared), each role's brief and task last. */
import { rulesPlacementFor } from '../../agents/message-layout.js';
import { buildMessages, promptChars } from '../../agents/prompts.js';
import { backgroundText } from '../../config/background-text.js';
import type { CouncilScenario } from '../../config/scenario.js';
import { WINDOW_MARGIN_TOKENS } from '../../context/fit-window.js';
import type { AssessmentEvent } from '../../core/events.js';
import { DEFAULT_CHARS_PER_TOKEN, estimateTokens, promptBudget } from '../../core/token-estimate.js';
import { countWord, listLimitsText } from '../../judging/list-limits.js';
import type { ChatMessage } from '../../llm/provider.js';
import { seededFraction } from '../../rotation/seeded-random.js';
import type { SequenceState } from '../shared/sequence-state.js';
import { structuredAnswerRoom } from '../shared/structured-call.js';
import {
  DECISION_LISTS,
  decisionOptions,
  PROPOSAL_DECISIONS,
  PROPOSAL_STANCES,
  ROLE_LIST_MOST,
} from './packet-schema.js';

export type CouncilState = SequenceState<CouncilScenario>;
export const DEBATING_ROLES = ['Proponent', 'Critic', 'Analyst', 'Synthesizer'] as const;
export type DebatingRole = (typeof DEBATING_ROLES)[number];
const ROLE_ORDER: readonly string[] = DEBATING_ROLES;

const BRIEFS: Record<string, string> = {
  Proponent:
    'You make the strongest honest case for the position you find most promising, as strong as it honestly can be.',
  Critic:
    'You look for what is wrong: weak assumptions, hidden costs, failure modes and better alternatives.',
  Analyst:
    'You weigh the evidence and the numbers, and say what is known, what is assumed and what is missing.',
  Synthesizer:
    'You look for the option that keeps the strongest points of every side and resolves their conflicts.',
  Judge:
    'You decide: you select one option, reject the others with reasons, name the risks and the next actions.',
};

export function councilSystemPrompt(scenario: CouncilScenario): string {
  return [
    'You are one of five roles in a structured decision council: Proponent, Critic, Analyst, Synthesizer and Judge.',
    `Question: ${scenario.topic.trim()}`,
    `Output type: ${scenario.output_type}`,
    scenario.constraints.length > 0
      ? `Constraints:\n${scenario.constraints.map((item) => `- ${item}`).join('\n')}`
      : 'Constraints: none given.',
    scenario.options
      ? `Options:\n${scenario.options.map((item) => `- ${item}`).join('\n')}`
      : `Options: adopt the proposal in the question, adopt it with conditions, or reject it (${PROPOSAL_DECISIONS.map((option) => JSON.stringify(option)).join(', ')}).`,
    '',
    'Rounds: 1 opening positions; 2 each role challenges at least one other role; 3 revised positions. Then the Judge decides.',
    backgroundText(scenario.background, scenario.contextFiles),
  ].join('\n');
}

/** The stances a role may take: the scenario's options, or for, against or conditional on the proposal. */
export function councilStances(scenario: CouncilScenario): readonly string[] {
  return scenario.options ?? PROPOSAL_STANCES;
}

/** How a role without an answer appears to the others: never the error text itself. */
function noAnswer(item: AssessmentEvent): string {
  return item.callFailed ? '(no answer: its model failed)' : '(no answer: its answer could not be used)';
}

const list = (items: unknown) =>
  Array.isArray(items) ? items.map((item) => String(item)).join('; ') : String(items ?? '');

/** A role's answer as the other roles read it: plain labelled lines, never the engine's bookkeeping. */
export function answerText(result: Record<string, unknown>): string {
  const lines = [`Claim: ${String(result.claim ?? '').trim()}`];
  if (result.stance !== undefined) {
    const confidence =
      typeof result.confidence === 'number' ? ` (confidence ${Math.round(result.confidence * 100)}%)` : '';
    lines.push(`Stance: ${String(result.stance)}${confidence}`);
  }
  if (result.revision) lines.push(`What changed: ${String(result.revision).trim()}`);
  if (result.rationale) lines.push(`Rationale: ${String(result.rationale).trim()}`);
  if (Array.isArray(result.risks) && result.risks.length > 0) lines.push(`Risks: ${list(result.risks)}`);
  if (Array.isArray(result.challenges)) {
    for (const challenge of result.challenges as Array<Record<string, unknown>>) {
      lines.push(
        `Challenge to the ${String(challenge.target_role ?? challenge.target)}: ${String(challenge.challenge).trim()}`,
      );
    }
  }
  return lines.join('\n');
}

/**
 * A role's answer reduced to its own position lines (claim, stance, challenges), for a round the
 * Judge reads condensed: the role's own words, only fewer of them.
 */
function positionText(result: Record<string, unknown>): string {
  const { rationale: _rationale, risks: _risks, revision: _revision, ...kept } = result;
  return answerText(kept);
}

/**
 * One round under the roles' names, in role order (not arrival order: roles answer concurrently,
 * and a prompt must not depend on timing); `condensed`, by their position lines only. Empty when
 * nobody answered in it.
 */
function namedRound(state: CouncilState, round: number, condensed = false): string {
  const outputs = state.assessments
    .filter((item) => item.phase === `round-${round}`)
    .sort((a, b) => ROLE_ORDER.indexOf(a.judge) - ROLE_ORDER.indexOf(b.judge));
  if (outputs.length === 0) return '';
  const text = (result: Record<string, unknown>) => (condensed ? positionText(result) : answerText(result));
  return `## Round ${round}${condensed ? " (each role's position; its reasons are in the later rounds)" : ': the answers'}\n${outputs
    .map((item) => `### ${item.judge}\n${item.result ? text(item.result) : noAnswer(item)}`)
    .join('\n\n')}`;
}

/** Rounds up to `upTo` under the roles' names; rounds up to `condensedThrough` by their position lines only. */
export function roundsText(state: CouncilState, upTo: number, condensedThrough = 0): string {
  const parts: string[] = [];
  for (let round = 1; round <= upTo; round += 1)
    parts.push(namedRound(state, round, round <= condensedThrough));
  const said = parts.filter((part) => part !== '');
  return said.length > 0 ? said.join('\n\n') : 'Nothing has been said yet.';
}

/** The challenges of round 2 aimed at `role`, for its revision in round 3. */
function challengesFor(state: CouncilState, role: DebatingRole): string {
  const received = state.assessments
    .filter((item) => item.phase === 'round-2' && item.result && item.judge !== role)
    .sort((a, b) => ROLE_ORDER.indexOf(a.judge) - ROLE_ORDER.indexOf(b.judge))
    .flatMap((item) =>
      ((item.result?.challenges ?? []) as Array<Record<string, unknown>>)
        .filter((challenge) => challenge.target_role === role)
        .map((challenge) => `- From the ${item.judge}: ${String(challenge.challenge).trim()}`),
    );
  return received.length === 0
    ? 'No role challenged your position in round 2.'
    : `The challenges aimed at your position in round 2:\n${received.join('\n')}`;
}

function stanceText(scenario: CouncilScenario): string {
  const choices = councilStances(scenario)
    .map((stance) => JSON.stringify(stance))
    .join(' | ');
  const meaning = scenario.options
    ? 'The stance is the option you back.'
    : 'The stance is your position on the proposal in the question: for it, against it, or for it only on conditions you name.';
  return `"stance": ${choices}, "confidence": <0-100: how sure you are, and 90 or more only with strong evidence>}. ${meaning}`;
}

/**
 * A round's task as every role of the round reads it: what the round asks and the answer's form.
 * It comes before the role's own card, so a server's prompt cache serves it to every role after
 * the first.
 */
function roundTask(scenario: CouncilScenario, round: number): string {
  const brief = `Keep each text to one or two sentences and each list to at most ${countWord(ROLE_LIST_MOST)} items.`;
  switch (round) {
    case 1:
      return `## Round 1: opening positions\nEach role states its opening position on the question. Answer only with JSON, in this order: {"rationale": "<why>", "claim": "<your position in one sentence>", "risks": ["..."], ${stanceText(scenario)}\n${brief}`;
    case 2: {
      const labels = PACKET_LABELS.slice(0, DEBATING_ROLES.length);
      return `## Round 2: peer review\nEach role reviews the opening positions above, one of which is its own: it challenges at least one of the other responses, naming the weakest assumption or the missing evidence. Answer only with JSON, in this order: {"rationale": "<why>", "claim": "<your position in one sentence>", "risks": ["..."], "challenges": [{"target": ${labels.map((label) => JSON.stringify(label)).join(' | ')} (never your own), "challenge": "..."}]}\n${brief}`;
    }
    default:
      return `## Round 3: revised positions\nEach role answers the challenges aimed at it and revises its position where they are right. Answer only with JSON, in this order: {"revision": "<what you changed and why, or why you did not>", "rationale": "<why>", "claim": "<your revised position in one sentence>", "risks": ["..."], ${stanceText(scenario)}\n${brief}`;
  }
}

const PACKET_LABELS = ['Response A', 'Response B', 'Response C', 'Response D'] as const;

/**
 * Round 2's packet order: every debating role's opening under an anonymous label, in one order
 * drawn from the seed, the same for every reviewer (one packet, as a panel's reviewers each get the
 * same papers). A reviewer is told which response is its own and cannot tell who wrote the others,
 * so it challenges the argument, not the role; the order changes from run to run, so no role is
 * always read first.
 */
export function packetOrder(state: CouncilState): Array<{ label: string; role: DebatingRole }> {
  const order: DebatingRole[] = [...DEBATING_ROLES];
  for (let at = order.length - 1; at > 0; at -= 1) {
    const pick = Math.floor(seededFraction(state.scenario.seed, `council:peer-review:${at}`) * (at + 1));
    [order[at], order[pick]] = [order[pick] as DebatingRole, order[at] as DebatingRole];
  }
  return order.map((role, at) => ({ label: PACKET_LABELS[at] as string, role }));
}

/** Round 2's labels a reviewer may challenge: every response in the packet but its own. */
export function peerLabels(
  state: CouncilState,
  reviewer: DebatingRole,
): Array<{ label: string; role: DebatingRole }> {
  return packetOrder(state).filter((item) => item.role !== reviewer);
}

/** The label of a role's own opening in round 2's packet. */
function ownLabel(state: CouncilState, role: DebatingRole): string {
  return packetOrder(state).find((item) => item.role === role)?.label ?? '';
}

/** Round 1 as every reviewer reads it in round 2: the openings under their labels, in packet order. */
function packetText(state: CouncilState): string {
  const answerOf = (role: DebatingRole) => {
    const item = state.assessments.find((event) => event.phase === 'round-1' && event.judge === role);
    if (!item) return '(no answer)';
    return item.result ? answerText(item.result) : noAnswer(item);
  };
  return [
    '## Round 1: the answers, each under a letter',
    ...packetOrder(state).map(({ label, role }) => `### ${label}\n${answerOf(role)}`),
  ].join('\n\n');
}

/** Who wrote which response of the packet, once the review is over. */
function packetKey(state: CouncilState): string {
  return `## Who wrote which response\n${packetOrder(state)
    .map(({ label, role }) => `${label}: the ${role}'s.`)
    .join(' ')}`;
}

/**
 * What a call of round `round` reads before its role's card (round 4: the Judge, before the
 * consensus), growing by appending: each round's task as every role of it read it, then what the
 * round produced (round 1 as round 2's packet; who wrote which once the review is over; the later
 * rounds under the roles' names). Each earlier round's task stays where its calls read it, so a
 * round's calls begin with everything the calls of the round before read up to their role's
 * card, and a server's slot for a model (which holds the last call on it) serves all of that
 * (decision 031).
 */
function councilRecord(state: CouncilState, round: number): string {
  const { scenario } = state;
  const parts = [roundTask(scenario, 1)];
  if (round >= 2) parts.push(packetText(state), roundTask(scenario, 2));
  if (round >= 3) parts.push(packetKey(state), namedRound(state, 2), roundTask(scenario, 3));
  if (round >= 4) parts.push(namedRound(state, 3));
  return parts.filter((part) => part !== '').join('\n\n');
}

/** A role's own card, last in its prompt: its name, brief and what only it is told. */
function roleCard(state: CouncilState, role: DebatingRole, round: number): string {
  return [
    `## Your task: round ${round} as the ${role}`,
    `Your name: ${role}`,
    BRIEFS[role] ?? '',
    round === 2
      ? `${ownLabel(state, role)} is your own opening position: challenge the others (${peerLabels(
          state,
          role,
        )
          .map((item) => item.label)
          .join(', ')}).`
      : '',
    round === 3 ? challengesFor(state, role) : '',
    `Answer with the JSON object round ${round} asks for above, and nothing else.`,
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/** Where a role's model keeps the shared rules first (decision 017): a system message, or the first user message. */
function placementOf(state: CouncilState, role: string) {
  const participants = state.scenario.participants as Record<string, { model?: string } | undefined>;
  return rulesPlacementFor(participants[role.toLowerCase()]?.model);
}

export function roundMessages(state: CouncilState, role: DebatingRole, round: number): ChatMessage[] {
  return buildMessages(
    councilSystemPrompt(state.scenario),
    councilRecord(state, round),
    roleCard(state, role, round),
    placementOf(state, role),
  );
}

/** The consensus as the Judge reads it: the figures and the agreements in plain lines. */
function consensusText(consensus: Record<string, unknown>): string {
  const figure = (value: unknown) => (typeof value === 'number' ? `${Math.round(value * 100)}%` : 'n/a');
  return [
    '## Consensus',
    `Consensus: ${figure(consensus.consensus_score)}; mean confidence: ${figure(consensus.confidence_score)}.`,
    consensus.majority_stance ? `Majority stance: ${String(consensus.majority_stance)}.` : '',
    `Agreements: ${list(consensus.key_agreements) || 'none recorded'}.`,
    `Disagreements: ${list(consensus.key_disagreements) || 'none recorded'}.`,
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/**
 * The Judge's prompt. When the three rounds in full would not fit its window (measured at the
 * model's `rate`, with room for a repair), the earlier rounds give each role's position lines and
 * the last round stays whole, so the window fitter never cuts what the Judge weighs.
 */
export function judgeMessages(
  state: CouncilState,
  consensus: Record<string, unknown>,
  today: string,
  rate = DEFAULT_CHARS_PER_TOKEN,
): ChatMessage[] {
  const { scenario } = state;
  const system = councilSystemPrompt(scenario);
  const task = judgeTask(state, today);
  const budget = promptBudget(
    scenario.model_options.context_window,
    structuredAnswerRoom(
      scenario.judge_max_tokens,
      scenario.participants.judge.think === true,
      scenario.thinking_budget,
    ),
    WINDOW_MARGIN_TOKENS,
  );
  // Whole, the record every round read with round 3 after it, so the cache serves all but round 3; else condensed.
  const material = (condensedThrough: number) =>
    `${condensedThrough === 0 ? councilRecord(state, 4) : roundsText(state, 3, condensedThrough)}\n\n${consensusText(consensus)}`;
  const fits = (text: string) =>
    estimateTokens(promptChars(buildMessages(system, text, task)), rate) <= budget;
  const chosen = [0, 1, 2].map(material).find(fits) ?? material(2);
  return buildMessages(system, chosen, task, placementOf(state, 'judge'));
}

function judgeTask(state: CouncilState, today: string): string {
  const optionChoice = decisionOptions(state.scenario.options)
    .map((option) => JSON.stringify(option))
    .join(' | ');
  return [
    '## Your task: the decision',
    'Your name: Judge',
    BRIEFS.Judge,
    `Today is ${today}; due dates are YYYY-MM-DD after today.`,
    `Answer only with JSON, in this order: {"weighing": "<how the options compare against the constraints and the arguments above>", "selected_option": ${optionChoice}, "why_selected": ["..."], "rejected_options": [{"option": ${optionChoice}, "reason": "..."}], "risks": [{"risk": "...", "severity": "high" | "medium" | "low", "mitigation": "..."}], "next_actions": [{"action": "...", "owner": "...", "due": "YYYY-MM-DD"}]}`,
    'Select one of the options exactly as listed above.',
    `Weigh the options first, then select. Keep each text to one or two sentences; give ${listLimitsText(Object.values(DECISION_LISTS))}.`,
  ]
    .filter((line) => line !== '')
    .join('\n');
}
