/** The council's prompts: the request and earlier rounds first (shared), each role's brief and task last. */
import { backgroundText, buildMessages } from '../../agents/prompts.js';
import type { CouncilScenario } from '../../config/scenario.js';
import type { ChatMessage } from '../../llm/provider.js';
import type { SequenceState } from '../shared/sequence-state.js';

export type CouncilState = SequenceState<CouncilScenario>;
export const DEBATING_ROLES = ['Proponent', 'Critic', 'Analyst', 'Synthesizer'] as const;
export type DebatingRole = (typeof DEBATING_ROLES)[number];
const ROLE_ORDER: readonly string[] = DEBATING_ROLES;

const BRIEFS: Record<string, string> = {
  Proponent: 'You argue for the most promising option and make its case as strong as it honestly can be.',
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
    '',
    'Rounds: 1 opening positions; 2 each role challenges at least one other role; 3 revised positions. Then the Judge decides.',
    backgroundText(scenario.background, scenario.contextFiles),
  ].join('\n');
}

/** Earlier rounds as every role sees them. */
export function roundsText(state: CouncilState, upTo: number): string {
  const parts: string[] = [];
  for (let round = 1; round <= upTo; round += 1) {
    // In role order, not arrival order: roles answer concurrently, and a prompt must not depend on timing.
    const outputs = state.assessments
      .filter((item) => item.phase === `round-${round}`)
      .sort((a, b) => ROLE_ORDER.indexOf(a.judge) - ROLE_ORDER.indexOf(b.judge));
    if (outputs.length === 0) continue;
    parts.push(
      `## Round ${round}\n${outputs
        .map(
          (item) =>
            `### ${item.judge}\n${item.result ? JSON.stringify(item.result, null, 1) : `(no answer: ${item.reason ?? 'failed'})`}`,
        )
        .join('\n\n')}`,
    );
  }
  return parts.length > 0 ? parts.join('\n\n') : 'Nothing has been said yet.';
}

const TASKS: Record<number, string> = {
  1: 'Round 1, opening position. Answer only with JSON: {"claim": "...", "rationale": "...", "risks": ["..."], "stance": "support" | "oppose" | "conditional", "confidence": <0-1>}. The stance is towards the option you consider most promising.',
  2: 'Round 2, cross-examination: challenge at least one other role\'s claim. Answer only with JSON: {"claim": "...", "rationale": "...", "risks": ["..."], "challenges": [{"target_role": "<another role>", "challenge": "..."}]}',
  3: 'Round 3, revised position after the challenges. Answer only with JSON: {"claim": "...", "revision": "<what you changed and why>", "rationale": "...", "risks": ["..."], "stance": "support" | "oppose" | "conditional", "confidence": <0-1>}',
};

export function roundMessages(state: CouncilState, role: DebatingRole, round: number): ChatMessage[] {
  return buildMessages(
    councilSystemPrompt(state.scenario),
    roundsText(state, round - 1),
    [
      `## Your task: round ${round} as the ${role}`,
      `Your name: ${role}`,
      BRIEFS[role] ?? '',
      TASKS[round] ?? '',
    ].join('\n'),
  );
}

export function judgeMessages(
  state: CouncilState,
  consensus: Record<string, unknown>,
  today: string,
): ChatMessage[] {
  return buildMessages(
    councilSystemPrompt(state.scenario),
    `${roundsText(state, 3)}\n\n## Consensus\n${JSON.stringify(consensus, null, 1)}`,
    [
      '## Your task: the decision',
      'Your name: Judge',
      BRIEFS.Judge,
      `Today is ${today}; due dates are YYYY-MM-DD after today.`,
      'Answer only with JSON: {"selected_option": "...", "why_selected": ["..."], "rejected_options": [{"option": "...", "reason": "..."}], "risks": [{"risk": "...", "severity": "high" | "medium" | "low", "mitigation": "..."}], "next_actions": [{"id": "A1", "action": "...", "owner": "...", "due": "YYYY-MM-DD"}]}',
    ].join('\n'),
  );
}
