/**
 * The formal debate's verdict prompts: the judge's verdict in both side orders, read from the whole
 * public record when it fits the judge's window, else from the judge's digests of its first parts
 * and the closing statements whole; and the digests' own prompts.
 */
import { buildMessages, lengthRequest, promptChars } from '../../agents/prompts.js';
import { type FormalSide, formalSides } from '../../config/formal-sides.js';
import { WINDOW_MARGIN_TOKENS } from '../../context/fit-window.js';
import { estimateTokens, promptBudget } from '../../core/token-estimate.js';
import { charsFor } from '../../judging/answer-fields.js';
import { criteriaLines } from '../../judging/criteria.js';
import type { ChatMessage } from '../../llm/provider.js';
import { structuredAnswerRoom } from '../shared/structured-call.js';
import { opposite } from './formal-plan.js';
import {
  debateSoFar,
  type FormalState,
  formalSystemPrompt,
  modelRate,
  publicRecord,
} from './formal-prompts.js';

/** The verdict's text lengths, in characters: they fit the verdict's cap with room to spare. */
export function verdictChars(maxTokens: number) {
  return { summary: charsFor(maxTokens, 0.2, 300), reasons: charsFor(maxTokens, 0.35, 600) };
}

/** The parts of a formal debate the verdict may read as the judge's digest; the closing statements stay whole. */
export const DIGEST_GROUPS = [
  { key: 'opening', phases: ['opening'], title: 'the opening statements' },
  { key: 'rebuttal', phases: ['rebuttal'], title: 'the rebuttals' },
  { key: 'cross-examination', phases: ['cross-question', 'cross-answer'], title: 'the cross-examination' },
] as const;

/** The cap of one digest: about 150-250 words. */
export const DIGEST_TOKENS = 400;

export type DigestGroup = (typeof DIGEST_GROUPS)[number];

/** The judge's digest of one part of the debate, if it was written. */
export const digestOf = (state: FormalState, key: string) =>
  state.statements.find((statement) => statement.phase === 'digest' && statement.target === key);

/** The judge model's characters per token as measured over the run so far. */
function judgeRate(state: FormalState): number {
  return modelRate(
    state,
    state.scenario.verdict.judge_model ?? formalSides(state.scenario).affirmative.model,
  );
}

/** Whether the verdict's prompt with `debate` as its material fits the judge's window, repair included. */
function verdictFits(state: FormalState, debate: string): boolean {
  const { scenario } = state;
  const messages = buildMessages(formalSystemPrompt(scenario), debate, verdictTask(state, 'affirmative'));
  const budget = promptBudget(
    scenario.model_options.context_window,
    structuredAnswerRoom(scenario.verdict.max_tokens),
    WINDOW_MARGIN_TOKENS,
  );
  return estimateTokens(promptChars(messages), judgeRate(state)) <= budget;
}

/** The parts of the debate the judge must digest before its verdict: none when the whole debate fits. */
export function missingDigests(state: FormalState): DigestGroup[] {
  if (verdictFits(state, publicRecord(state))) return [];
  return DIGEST_GROUPS.filter((group) => !digestOf(state, group.key));
}

/**
 * The debate as the verdict reads it: whole when it fits; otherwise the judge's digests of the
 * opening statements, the rebuttals and the cross-examination, and the closing statements whole.
 */
function verdictMaterial(state: FormalState): string {
  const whole = publicRecord(state);
  if (verdictFits(state, whole) || !DIGEST_GROUPS.every((group) => digestOf(state, group.key))) return whole;
  const digests = DIGEST_GROUPS.map((group) => {
    const digest = digestOf(state, group.key);
    const text = digest?.degraded ? '(no summary: the model failed)' : (digest?.text.trim() ?? '');
    return `### Summary of ${group.title} (written by the judge from them)\n${text}`;
  });
  return ['## The debate so far', ...digests, debateSoFar(state, ['closing'])].join('\n\n');
}

/** The judge's digest of one part of the debate: the statements of that part, summarised faithfully. */
export function digestMessages(state: FormalState, group: DigestGroup): ChatMessage[] {
  return buildMessages(
    formalSystemPrompt(state.scenario),
    `## ${group.title[0]?.toUpperCase()}${group.title.slice(1)}\n${debateSoFar(state, group.phases)}`,
    [
      `## Your task: summarise ${group.title}`,
      "You are the judge's note-taker, separate from the debate. Summarise faithfully what each side said above, for the judge who will give the verdict and cannot read the whole debate:",
      "- each side's arguments, evidence and numbers, in that side's own terms;",
      "- where each side answered or failed to answer the other's points.",
      'Name each side (affirmative, negative); add no judgement or argument of your own. Plain prose, no headings.',
      lengthRequest(DIGEST_TOKENS),
    ].join('\n'),
  );
}

/**
 * The verdict's task, with the sides in the order `first` introduces them. What both readings of a
 * side swap share (the judge's brief, the criteria) comes before the sides, so the second reading
 * is served from the cache up to them.
 */
function verdictTask(state: FormalState, first: FormalSide): string {
  const { scenario } = state;
  const names = Object.keys(scenario.verdict.criteria);
  const order: FormalSide[] = [first, opposite(first)];
  const scores = `{${names.map((name) => `"${name}": <1-5>`).join(', ')}}`;
  const introduce = (side: FormalSide) =>
    `${side === 'affirmative' ? 'Affirmative' : 'Negative'}: ${scenario.positions[side]} (argues ${side === 'affirmative' ? 'in favour of' : 'against'} the motion)`;
  return [
    '## Your task: the verdict',
    'You are an impartial judge, separate from the debate. Judge the arguments made, not the length of the statements or which side spoke first.',
    'Score each side on every criterion from 1 to 5, using these guides:',
    criteriaLines(scenario.verdict.criteria),
    '',
    'The two sides:',
    ...order.map(introduce),
    '',
    'Answer only with this JSON object, in this order:',
    `{"summary": "<two sentences: each side's case>", "reasons": "<how the two sides compare on the criteria>", ${order.map((side) => `"${side}": ${scores}`).join(', ')}, "winner": ${order.map((side) => `"${side}"`).join(' | ')}}`,
    'Write the summary and reasons first; then the scores that follow from them; the winner is the side with the higher weighted total.',
  ].join('\n');
}

/**
 * The judge's prompt, with the sides introduced in the debate's order or, for the side-swapped
 * second call, the negative first (in the task's list of sides and in the answer format). The
 * debate itself is always shown in the order it was spoken: a reply never comes before what it
 * answers. Everything before the task is the record the closing statements read, so both readings
 * are served from the cache up to their task.
 */
export function verdictMessages(state: FormalState, first: FormalSide = 'affirmative'): ChatMessage[] {
  return buildMessages(formalSystemPrompt(state.scenario), verdictMaterial(state), verdictTask(state, first));
}
