/** The critique format's prompts: the problem and process first, then what this phase may see, then the task. */
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
import { listLimitsText } from '../../judging/list-limits.js';
import type { ChatMessage } from '../../llm/provider.js';
import type { SequenceState } from '../shared/sequence-state.js';
import { structuredAnswerRoom } from '../shared/structured-call.js';

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

function critiquesBlock(title: string, critiques: StatementEvent[]): string {
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
function history(state: CritiqueState, round: number): string {
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
function wholeRecord(state: CritiqueState, round: number): string {
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

/**
 * A refinement sees the round's proposals (its own among them, as the critics saw it) and, in its
 * task, the critiques it received.
 */
export function refinementMessages(state: CritiqueState, agent: RoleAgent, round: number): ChatMessage[] {
  const { scenario } = state;
  const received = said(state, 'critique', round).filter((critique) => critique.target === agent.name);
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

/** The cap of the synthesis's structured fields: its lists and its confidence, not the design. */
export const SOLUTION_FIELDS_TOKENS = 500;
/** The cap of one digest: about 120-200 words. */
export const DIGEST_TOKENS = 300;
/** Tokens of the request that follows the design in the structured call. */
const STRUCTURED_ASK_TOKENS = 200;

/** The judge's digest of one expert's work in one round, if it was written. */
export const digestOf = (state: CritiqueState, round: number, agent: string) =>
  state.statements.find(
    (statement) => statement.phase === 'digest' && statement.round === round && statement.target === agent,
  );

/**
 * The model's characters per token as the run measured it before `beforeSeq` (the design of the
 * round, when written): the design call and the structured call after it size their material
 * alike, so the second reuses the first's messages as its prefix.
 */
function judgeRate(state: CritiqueState, beforeSeq = Number.POSITIVE_INFINITY): number {
  const model = state.scenario.judge.model;
  const samples = [...state.statements, ...state.assessments].filter((item) => item.seq < beforeSeq);
  return (
    calibrate(
      samples.map((item) => ({
        model: item.model,
        promptChars: item.promptChars,
        promptTokens: item.promptTokens,
      })),
    ).get(model) ?? DEFAULT_CHARS_PER_TOKEN
  );
}

/** The design call's task. */
function designTask(state: CritiqueState, round: number): string {
  const { scenario } = state;
  return [
    `## Your task: synthesise a solution (after round ${round})`,
    `Your name: ${scenario.judge.name}`,
    ...(scenario.judge.system_prompt ? [`Your instructions: ${scenario.judge.system_prompt}`] : []),
    "You are the judge, not one of the experts. Combine the experts' work above into one solution: take the strongest ideas, resolve the conflicts between them, and leave out what the critiques rightly refuted.",
    ...(round > 1
      ? [
          `The experts' latest work is their round ${round} refined proposals; the earlier rounds show how they got there.`,
        ]
      : []),
    'Write the solution as a design document in plain prose or short lists: the components and how they fit, the interfaces, the numbers that matter, and the implementation notes. Do not write JSON.',
    lengthRequest(scenario.judge_max_tokens),
  ].join('\n');
}

/** The rounds' digests, one section a round, each expert's in scenario order. */
function digestsText(state: CritiqueState, through: number): string {
  const parts: string[] = [];
  for (let round = 1; round <= through; round += 1) {
    const lines = state.scenario.agents.map((agent) => {
      const digest = digestOf(state, round, agent.name);
      const text = !digest
        ? '(not summarised)'
        : digest.degraded
          ? '(no summary: the model failed)'
          : digest.text.trim();
      return `### ${agent.name} (${agent.role})\n${text}`;
    });
    parts.push(
      `## Summary of round ${round}: each expert's proposal, the critiques it received and what its refinement changed\n${lines.join('\n\n')}`,
    );
  }
  return parts.join('\n\n');
}

/**
 * What the judge synthesises from, the fullest that fits (seed 002's `synthesize` receives all
 * rounds): every round verbatim; else the judge's digests of the earlier rounds and the latest
 * round verbatim; else the digests of every round and every expert's latest refinement verbatim.
 * Sized for the structured call that follows the design, so neither call is cut by the window.
 */
function synthesisMaterial(state: CritiqueState, round: number): { material: string; fits: boolean } {
  const { scenario } = state;
  const system = critiqueSystemPrompt(scenario);
  const task = designTask(state, round);
  const design = state.statements.find(
    (statement) => statement.phase === 'synthesis' && statement.round === round,
  );
  const rate = judgeRate(state, design?.seq);
  const structured =
    scenario.judge_max_tokens + STRUCTURED_ASK_TOKENS + structuredAnswerRoom(SOLUTION_FIELDS_TOKENS);
  const budget = promptBudget(
    scenario.model_options.context_window,
    Math.max(scenario.judge_max_tokens, structured),
    WINDOW_MARGIN_TOKENS,
  );
  const fits = (material: string) =>
    estimateTokens(promptChars(buildMessages(system, material, task)), rate) <= budget;
  const whole = wholeRecord(state, round);
  if (fits(whole)) return { material: whole, fits: true };
  const latest = history(state, round + 1)
    .slice(history(state, round).length)
    .trim();
  const digested = (through: number) =>
    state.scenario.agents.every((agent) =>
      Array.from({ length: through }, (_, at) => at + 1).every((earlier) =>
        digestOf(state, earlier, agent.name),
      ),
    );
  if (round > 1 && digested(round - 1)) {
    const withLatest = [digestsText(state, round - 1), latest].join('\n\n');
    if (fits(withLatest)) return { material: withLatest, fits: true };
  }
  const refined = block(
    `Round ${round}: every expert's refined proposal (their latest work, in full)`,
    said(state, 'refinement', round),
  );
  const summarised = [digestsText(state, round), refined].join('\n\n');
  return { material: digested(round) ? summarised : whole, fits: digested(round) && fits(summarised) };
}

/**
 * The digests the synthesis after `round` needs before its design: none when every round fits
 * verbatim; otherwise each expert's, for every round up to this one not yet digested. A digest is
 * written once and reused by every later synthesis.
 */
export function missingDigests(state: CritiqueState, round: number): Array<{ round: number; agent: string }> {
  const full = wholeRecord(state, round);
  const { scenario } = state;
  const structured =
    scenario.judge_max_tokens + STRUCTURED_ASK_TOKENS + structuredAnswerRoom(SOLUTION_FIELDS_TOKENS);
  const budget = promptBudget(
    scenario.model_options.context_window,
    Math.max(scenario.judge_max_tokens, structured),
    WINDOW_MARGIN_TOKENS,
  );
  const size = estimateTokens(
    promptChars(buildMessages(critiqueSystemPrompt(scenario), full, designTask(state, round))),
    judgeRate(state),
  );
  if (size <= budget) return [];
  const missing: Array<{ round: number; agent: string }> = [];
  for (let earlier = 1; earlier <= round; earlier += 1) {
    for (const agent of scenario.agents) {
      if (!digestOf(state, earlier, agent.name)) missing.push({ round: earlier, agent: agent.name });
    }
  }
  return missing;
}

/** The judge's digest of one expert's work in one round: its proposal, the critiques of it, its refinement. */
export function digestMessages(state: CritiqueState, agent: RoleAgent, round: number): ChatMessage[] {
  const own = (phase: string) =>
    said(state, phase, round).filter((statement) => statement.speaker === agent.name);
  const received = said(state, 'critique', round).filter((critique) => critique.target === agent.name);
  return buildMessages(
    critiqueSystemPrompt(state.scenario),
    [
      block(`${agent.name}'s proposal in round ${round}`, own('proposal')),
      received.length > 0
        ? `## The critiques of it\n${received.map((critique) => `### ${critique.speaker} on ${agent.name}\n${critique.text.trim()}`).join('\n\n')}`
        : '',
      block(`${agent.name}'s refinement in round ${round}`, own('refinement')),
    ]
      .filter((part) => part !== '')
      .join('\n\n'),
    [
      `## Your task: summarise ${agent.name}'s work in round ${round}`,
      `Your name: ${state.scenario.judge.name}`,
      "You are the judge's note-taker, not one of the experts. Summarise faithfully what is written above, for the judge who will synthesise the solution later and cannot read it all:",
      `- the design ${agent.name} proposed: its components, interfaces and numbers;`,
      '- each weakness the critiques found, and who found it;',
      `- what ${agent.name}'s refinement changed, and what it kept.`,
      "Use the experts' own terms and numbers; add no judgement or idea of your own. Plain prose, no headings.",
      lengthRequest(DIGEST_TOKENS),
    ].join('\n'),
  );
}

/** The judge's first synthesis call: the solution's design, written as prose (streamed like a statement). */
export function designMessages(state: CritiqueState, round: number): ChatMessage[] {
  return buildMessages(
    critiqueSystemPrompt(state.scenario),
    synthesisMaterial(state, round).material,
    designTask(state, round),
  );
}

/** How many items each list of the synthesis's structured fields may hold; its prompt states the same. */
export const SOLUTION_LISTS = {
  trade_offs: { most: 4, noun: 'trade-offs' },
  recommendations: { most: 4, noun: 'recommendations' },
} as const;

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
        `Give ${listLimitsText(Object.values(SOLUTION_LISTS))}; one sentence each. Rate confidence honestly: 90 or more only if no critique above is left unanswered.`,
      ].join('\n'),
    },
  ];
}
