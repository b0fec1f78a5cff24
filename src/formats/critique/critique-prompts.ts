/** The critique format's prompts: the problem and process first, then what this phase may see, then the task. */
import { backgroundText, buildMessages, lengthRequest } from '../../agents/prompts.js';
import type { RoleAgent } from '../../config/critique-schema.js';
import type { CritiqueScenario } from '../../config/scenario.js';
import type { StatementEvent } from '../../core/events.js';
import type { ChatMessage } from '../../llm/provider.js';
import type { SequenceState } from '../shared/sequence-state.js';

export type CritiqueState = SequenceState<CritiqueScenario>;

export function critiqueSystemPrompt(scenario: CritiqueScenario): string {
  return [
    'You are one of several experts solving a software problem together.',
    `Problem: ${scenario.topic.trim()}`,
    '',
    '## Process',
    `- ${scenario.rounds} round(s). In each: every expert proposes a solution; each critiques every other proposal; each refines its own from the critiques it received.`,
    '- A judge then synthesises one solution from the refined proposals.',
    '- Be concrete: components, interfaces, numbers, risks. Plain prose or short lists.',
    backgroundText(scenario.background, scenario.contextFiles),
  ].join('\n');
}

/**
 * A round's contributions of one phase in scenario order (critic, then target), never in arrival
 * order: they are generated concurrently, and a prompt must not depend on which finished first.
 */
const said = (state: CritiqueState, phase: string, round: number) => {
  const order = state.scenario.agents.map((agent) => agent.name);
  const rank = (name: string | undefined) => order.indexOf(name ?? '');
  return state.statements
    .filter((statement) => statement.phase === phase && statement.round === round)
    .sort((a, b) => rank(a.speaker) - rank(b.speaker) || rank(a.target) - rank(b.target));
};

function block(title: string, statements: StatementEvent[]): string {
  if (statements.length === 0) return '';
  return `## ${title}\n${statements.map((statement) => `### ${statement.speaker} (${statement.side})\n${statement.text.trim()}`).join('\n\n')}`;
}

/** Everything said before round `round`, in order, for `include_full_history`. */
function history(state: CritiqueState, round: number): string {
  const parts: string[] = [];
  for (let earlier = 1; earlier < round; earlier += 1) {
    parts.push(block(`Round ${earlier}: proposals`, said(state, 'proposal', earlier)));
    parts.push(
      `## Round ${earlier}: critiques\n${said(state, 'critique', earlier)
        .map((critique) => `### ${critique.speaker} on ${critique.target}\n${critique.text.trim()}`)
        .join('\n\n')}`,
    );
    parts.push(block(`Round ${earlier}: refined proposals`, said(state, 'refinement', earlier)));
  }
  return parts.filter((part) => part !== '').join('\n\n');
}

function earlierWork(state: CritiqueState, round: number): string {
  if (round === 1) return 'No proposals have been made yet.';
  if (state.scenario.include_full_history) return history(state, round);
  return block(`Refined proposals from round ${round - 1}`, said(state, 'refinement', round - 1));
}

function task(agent: RoleAgent, lines: string[], maxTokens: number): string {
  return [
    `Your name: ${agent.name}`,
    `Your role: ${agent.role}`,
    agent.system_prompt ?? '',
    '',
    ...lines,
    lengthRequest(maxTokens),
  ].join('\n');
}

export function proposalMessages(state: CritiqueState, agent: RoleAgent, round: number): ChatMessage[] {
  const { scenario } = state;
  return buildMessages(
    critiqueSystemPrompt(scenario),
    earlierWork(state, round),
    task(
      agent,
      [
        `## Your task: round ${round} proposal`,
        'Propose your solution to the problem, building on earlier work if there is any.',
      ],
      scenario.max_tokens,
    ),
  );
}

/** Every critic sees the round's proposals (a shared prefix); the task names the one to critique. */
export function critiqueMessages(
  state: CritiqueState,
  critic: RoleAgent,
  target: string,
  round: number,
): ChatMessage[] {
  const { scenario } = state;
  return buildMessages(
    critiqueSystemPrompt(scenario),
    block(`Round ${round}: proposals`, said(state, 'proposal', round)),
    task(
      critic,
      [
        `## Your task: critique ${target}'s proposal (round ${round})`,
        `From your role's angle, name the weaknesses, risks and missing pieces of ${target}'s proposal, and what would fix them.`,
      ],
      scenario.max_tokens,
    ),
  );
}

/** A refinement sees its own proposal and the critiques it received. */
export function refinementMessages(state: CritiqueState, agent: RoleAgent, round: number): ChatMessage[] {
  const { scenario } = state;
  const own = said(state, 'proposal', round).filter((statement) => statement.speaker === agent.name);
  const received = said(state, 'critique', round).filter((critique) => critique.target === agent.name);
  return buildMessages(
    critiqueSystemPrompt(scenario),
    [block('Your proposal', own), block('Critiques you received', received)]
      .filter((part) => part !== '')
      .join('\n\n'),
    task(
      agent,
      [
        `## Your task: round ${round} refinement`,
        'Refine your proposal: keep what holds, fix what the critiques rightly found, and say briefly what you changed.',
      ],
      scenario.max_tokens,
    ),
  );
}

/**
 * What the judge synthesises from: every round's contributions, labelled by author and phase (seed
 * 002's `synthesize` receives all rounds). When that would not fit the window, the earlier rounds
 * are given by their refined proposals only (each expert's own summary of where it ended up), and
 * the latest round in full.
 */
function synthesisMaterial(state: CritiqueState, round: number, budgetChars: number): string {
  const whole = (upTo: number) => history(state, upTo + 1);
  const full = whole(round);
  if (full.length <= budgetChars) return full;
  const earlier = [];
  for (let earlierRound = 1; earlierRound < round; earlierRound += 1) {
    earlier.push(block(`Round ${earlierRound}: refined proposals`, said(state, 'refinement', earlierRound)));
  }
  const latest = history(state, round + 1)
    .slice(history(state, round).length)
    .trim();
  return [...earlier, latest].filter((part) => part !== '').join('\n\n');
}

/** The judge's first synthesis call: the solution's design, written as prose (streamed like a statement). */
export function designMessages(state: CritiqueState, round: number): ChatMessage[] {
  const { scenario } = state;
  const budgetChars = (scenario.model_options.context_window - scenario.judge_max_tokens - 1024) * 3;
  return buildMessages(
    critiqueSystemPrompt(scenario),
    synthesisMaterial(state, round, budgetChars),
    [
      `## Your task: synthesise a solution (after round ${round})`,
      `Your name: ${scenario.judge.name}`,
      ...(scenario.judge.system_prompt ? [`Your instructions: ${scenario.judge.system_prompt}`] : []),
      "You are the judge, not one of the experts. Combine the experts' work above into one solution: take the strongest ideas, resolve the conflicts between them, and leave out what the critiques rightly refuted.",
      'Write the solution as a design document in plain prose or short lists: the components and how they fit, the interfaces, the numbers that matter, and the implementation notes. Do not write JSON.',
      lengthRequest(scenario.judge_max_tokens),
    ].join('\n'),
  );
}

/** The second call: the structured fields, after the design (the design is in the conversation). */
export function synthesisMessages(state: CritiqueState, round: number, design: string): ChatMessage[] {
  return [
    ...designMessages(state, round),
    { role: 'assistant', content: design },
    {
      role: 'user',
      content: [
        'Now sum up that design for the record. Answer only with this JSON object, in this order:',
        '{"trade_offs": ["<a trade-off the design makes>"], "recommendations": ["<what to do first>"], "confidence": <0-100: how ready the design is to build>}',
        'At most four trade-offs and four recommendations, one sentence each. Rate confidence honestly: 90 or more only if no critique above is left unanswered.',
      ].join('\n'),
    },
  ];
}
