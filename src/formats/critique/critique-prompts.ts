/**
 * The critique format's prompts for the experts (the problem and process first, then what this
 * phase may see, then the task), and the record of the rounds that the judge's prompts
 * (synthesis-prompts.ts) read too.
 */
import { buildMessages, lengthRequest, promptChars } from '../../agents/prompts.js';
import { backgroundText } from '../../config/background-text.js';
import type { RoleAgent } from '../../config/critique-schema.js';
import type { CritiqueScenario } from '../../config/scenario.js';
import { WINDOW_MARGIN_TOKENS } from '../../context/fit-window.js';
import type { StatementEvent } from '../../core/events.js';
import {
  calibrate,
  DEFAULT_CHARS_PER_TOKEN,
  estimateTokens,
  promptBudget,
} from '../../core/token-estimate.js';
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
export const said = (state: CritiqueState, phase: string, round: number) => {
  const order = state.scenario.agents.map((agent) => agent.name);
  const rank = (name: string | undefined) => order.indexOf(name ?? '');
  return state.statements
    .filter((statement) => statement.phase === phase && statement.round === round)
    .sort((a, b) => rank(a.speaker) - rank(b.speaker) || rank(a.target) - rank(b.target));
};

export function block(title: string, statements: StatementEvent[]): string {
  if (statements.length === 0) return '';
  return `## ${title}\n${statements.map((statement) => `### ${statement.speaker} (${statement.side})\n${statement.text.trim()}`).join('\n\n')}`;
}

export function critiquesBlock(title: string, critiques: StatementEvent[]): string {
  if (critiques.length === 0) return '';
  return `## ${title}\n${critiques
    .map((critique) => `### ${critique.speaker} on ${critique.target}\n${critique.text.trim()}`)
    .join('\n\n')}`;
}

/** One round's phases, each under a heading that begins with `label` ("Round 2"). */
function roundPhases(
  state: CritiqueState,
  round: number,
  label: string,
  phases: ReadonlyArray<'proposal' | 'critique' | 'refinement'>,
): string[] {
  return phases.map((phase) =>
    phase === 'critique'
      ? critiquesBlock(`${label}: critiques`, said(state, 'critique', round))
      : block(
          `${label}: ${phase === 'proposal' ? 'proposals' : 'refined proposals'}`,
          said(state, phase, round),
        ),
  );
}

/** Everything said before round `round`, in order, for `include_full_history`. */
export function history(state: CritiqueState, round: number): string {
  const parts: string[] = [];
  for (let earlier = 1; earlier < round; earlier += 1) {
    parts.push(...roundPhases(state, earlier, `Round ${earlier}`, ['proposal', 'critique', 'refinement']));
  }
  return parts.filter((part) => part !== '').join('\n\n');
}

/**
 * Every round of the first `round` verbatim, for the judge after round `round`, beginning with what
 * that round's critics and refiners read (a server's prefix cache still holds it when the judge
 * comes). With `include_full_history` that is the rounds in order. Without it, the experts of round
 * r > 1 read round r-1's refinements and round r's proposals: the record begins with those, then
 * round r's critiques and refinements, then the earlier rounds' other work, for reference.
 */
export function wholeRecord(state: CritiqueState, round: number): string {
  if (round === 1 || state.scenario.include_full_history) return history(state, round + 1);
  const parts = [
    roundMaterial(state, round),
    ...roundPhases(state, round, `Round ${round}`, ['critique', 'refinement']),
  ];
  for (let earlier = 1; earlier < round; earlier += 1) {
    const label = `Round ${earlier}, for reference`;
    parts.push(
      ...roundPhases(
        state,
        earlier,
        label,
        earlier === round - 1 ? ['proposal', 'critique'] : ['proposal', 'critique', 'refinement'],
      ),
    );
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

/**
 * What the critics and the refiners of a round share: the earlier work (from round 2 on) and the
 * round's proposals, in scenario order. Every critique and refinement call of the round reads it
 * first, so a server's prefix cache serves it; in round 1 it is also how the synthesis's material
 * begins.
 */
function roundMaterial(state: CritiqueState, round: number): string {
  return [
    round > 1 ? earlierWork(state, round) : '',
    block(`Round ${round}: proposals`, said(state, 'proposal', round)),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
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
    roundMaterial(state, round),
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

/** A model name as the server knows it, for telling whether two calls go to the same model. */
const modelKey = (model: string) =>
  model
    .trim()
    .toLowerCase()
    .replace(/:latest$/, '');

/** Whether an expert's model serves nobody else of the run: no other expert, not the judge. */
export function modelOfItsOwn(scenario: CritiqueScenario, agent: RoleAgent): boolean {
  const others = [
    ...scenario.agents.filter((other) => other.name !== agent.name).map((other) => other.model),
    scenario.judge.model,
  ];
  return others.every((model) => modelKey(model) !== modelKey(agent.model));
}

/**
 * A refinement reads what the critics read (the round's proposals, its own among them), then the
 * critiques; its task names those of its own proposal. Which critiques depends on what else its
 * model serves (decision 031): an expert whose model also serves other experts or the judge reads
 * every critique of the round, in scenario order under the heading the judge's record gives them,
 * so that every refinement on that model and the synthesis after them begin alike and a server's
 * slot for the model holds that material from one call to the next; an expert on a model of its
 * own reads only the critiques of its proposal, after the shared material.
 */
export function refinementMessages(state: CritiqueState, agent: RoleAgent, round: number): ChatMessage[] {
  const { scenario } = state;
  const received = said(state, 'critique', round).filter((critique) => critique.target === agent.name);
  if (!modelOfItsOwn(scenario, agent)) {
    const shared = everyCritique(state, agent, round, received);
    // Every critique of a round of long contributions may not fit the window: then, as below.
    if (fitsWindow(state, agent.model, shared)) return shared;
  }
  const critiques =
    received.length > 0
      ? `## The critiques of your proposal\n${received.map((critique) => `### ${critique.speaker} on ${agent.name}\n${critique.text.trim()}`).join('\n\n')}`
      : '## The critiques of your proposal\nNo critiques were made.';
  return buildMessages(
    critiqueSystemPrompt(scenario),
    roundMaterial(state, round),
    task(
      agent,
      [
        critiques,
        '',
        `## Your task: round ${round} refinement`,
        `Refine your proposal (${agent.name}'s, above): keep what holds, fix what the critiques rightly found, and say briefly what you changed.`,
      ],
      scenario.max_tokens,
    ),
  );
}

/** A refinement after every critique of the round, its task naming those of its own proposal. */
function everyCritique(
  state: CritiqueState,
  agent: RoleAgent,
  round: number,
  received: StatementEvent[],
): ChatMessage[] {
  const critiques =
    received.length > 0
      ? `The critiques of your proposal are those headed "... on ${agent.name}" above (by ${received.map((critique) => critique.speaker).join(', ')}).`
      : 'No critiques of your proposal were made.';
  return buildMessages(
    critiqueSystemPrompt(state.scenario),
    roundAndCritiques(state, round),
    task(
      agent,
      [
        `## Your task: round ${round} refinement`,
        critiques,
        `Refine your proposal (${agent.name}'s, above): keep what holds, fix what the critiques of it rightly found, and say briefly what you changed.`,
      ],
      state.scenario.max_tokens,
    ),
  );
}

/** Whether `messages` fit `model`'s window with room for an answer, at the model's measured rate. */
function fitsWindow(state: CritiqueState, model: string, messages: ChatMessage[]): boolean {
  const { scenario } = state;
  const budget = promptBudget(
    scenario.model_options.context_window,
    scenario.max_tokens,
    WINDOW_MARGIN_TOKENS,
  );
  const rate =
    calibrate(
      [...state.statements, ...state.assessments].map((item) => ({
        model: item.model,
        promptChars: item.promptChars,
        promptTokens: item.promptTokens,
      })),
    ).get(model) ?? DEFAULT_CHARS_PER_TOKEN;
  return estimateTokens(promptChars(messages), rate) <= budget * 0.95;
}

/** What a round's refiners read before their task: the round's material, then all its critiques. */
export function roundAndCritiques(state: CritiqueState, round: number): string {
  return [
    roundMaterial(state, round),
    critiquesBlock(`Round ${round}: critiques`, said(state, 'critique', round)),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}
