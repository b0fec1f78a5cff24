/**
 * The critique judge's prompts: its digest of an expert's round when the rounds do not fit its
 * window, its design of the solution, and the structured fields that follow the design.
 */
import { buildMessages, lengthRequest, promptChars } from '../../agents/prompts.js';
import type { RoleAgent } from '../../config/critique-schema.js';
import type { CritiqueScenario } from '../../config/scenario.js';
import { WINDOW_MARGIN_TOKENS } from '../../context/fit-window.js';
import {
  calibrate,
  DEFAULT_CHARS_PER_TOKEN,
  estimateTokens,
  promptBudget,
} from '../../core/token-estimate.js';
import { listLimitsText } from '../../judging/list-limits.js';
import type { ChatMessage } from '../../llm/provider.js';
import { structuredAnswerRoom } from '../shared/structured-call.js';
import {
  block,
  type CritiqueState,
  critiqueSystemPrompt,
  history,
  said,
  wholeRecord,
} from './critique-prompts.js';

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

/**
 * The prompt tokens the synthesis's material may take: the window less the larger of the design's
 * answer and the structured call's (the design, the request and the fields' answer).
 */
function synthesisBudget(scenario: CritiqueScenario): number {
  const structured =
    scenario.judge_max_tokens + STRUCTURED_ASK_TOKENS + structuredAnswerRoom(SOLUTION_FIELDS_TOKENS);
  return promptBudget(
    scenario.model_options.context_window,
    Math.max(scenario.judge_max_tokens, structured),
    WINDOW_MARGIN_TOKENS,
  );
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
  const budget = synthesisBudget(scenario);
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
  const budget = synthesisBudget(scenario);
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
