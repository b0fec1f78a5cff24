/**
 * The formal debate's prompts. Seed 001's context rules (a rebuttal gets the opponent's previous
 * statements; a cross-examination question the opponent's opening and rebuttal; a closing statement
 * every previous statement; preparation private to its side) are met by one public record that
 * every call shares, with the speaker's own notes and task after it (decision 021).
 */
import { buildMessages, lengthRequest, promptChars, wordsFor } from '../../agents/prompts.js';
import { backgroundText } from '../../config/background-text.js';
import type { FormalDebater } from '../../config/formal-schema.js';
import { type FormalSide, formalSides } from '../../config/formal-sides.js';
import type { FormalScenario } from '../../config/scenario.js';
import { WINDOW_MARGIN_TOKENS } from '../../context/fit-window.js';
import type { StatementEvent } from '../../core/events.js';
import {
  calibrate,
  DEFAULT_CHARS_PER_TOKEN,
  estimateTokens,
  promptBudget,
} from '../../core/token-estimate.js';
import { charsFor } from '../../judging/answer-fields.js';
import { criteriaLines } from '../../judging/criteria.js';
import type { ChatMessage } from '../../llm/provider.js';
import type { SequenceState } from '../shared/sequence-state.js';
import { structuredAnswerRoom } from '../shared/structured-call.js';
import { opposite, PHASE_TITLES, type PlannedStatement } from './formal-plan.js';

export type FormalState = SequenceState<FormalScenario>;

export function sideLabel(scenario: FormalScenario, side: FormalSide): string {
  return `${scenario.positions[side]} (${side})`;
}

export function formalSystemPrompt(scenario: FormalScenario): string {
  return [
    'You are taking part in a formal debate between two AI models.',
    `Motion: ${scenario.topic.trim()}`,
    `Affirmative: ${scenario.positions.affirmative} (argues in favour of the motion)`,
    `Negative: ${scenario.positions.negative} (argues against the motion)`,
    '',
    '## Format',
    '- Preparation, opening statements, rebuttals, cross-examination (each side questions the other, who answers), closing statements.',
    '- Speak as a debater, in plain prose without headings; never argue for the other side.',
    backgroundText(scenario.background, scenario.contextFiles),
  ].join('\n');
}

const said = (state: FormalState, side: FormalSide, phase: string) =>
  state.statements.find((statement) => statement.side === side && statement.phase === phase);

/**
 * What every speaker sees of the debate: every statement made so far, in the order spoken, the
 * same text for both sides (seed 001's context rules ask for at least the opponent's previous
 * statements in a rebuttal, the opponent's opening and rebuttal in a cross-examination and every
 * statement in a closing; the public record holds each of them). Being the same for both sides
 * and only ever growing at its end, it is the prefix the server's cache serves to the next call.
 */
export function publicRecord(state: FormalState): string {
  const record = debateSoFar(state);
  return `## The debate so far\n${record === '' ? 'No statements have been made yet.' : record}`;
}

/** What is this speaker's alone: its preparation notes, in the phases that build on them. */
export function privateNotes(state: FormalState, item: PlannedStatement): string {
  if (item.phase !== 'opening' && item.phase !== 'rebuttal') return '';
  const notes = said(state, item.side, 'preparation');
  return notes
    ? `## Your prepared case (your own notes; the other side has not seen them)\n${notes.text.trim()}`
    : '';
}

/** How a statement is titled: its phase, who speaks, and in cross-examination who asks whom. */
function statementTitle(state: FormalState, statement: StatementEvent): string {
  const sides = formalSides(state.scenario);
  const side = statement.side as FormalSide;
  const name = (of: FormalSide) => speakerName(sides[of]) || `the ${of}`;
  const speaker = `${name(side)} (${sideLabel(state.scenario, side)})`;
  const other = name(opposite(side));
  if (statement.phase === 'cross-question') return `Cross-examination: ${speaker} asks ${other}`;
  if (statement.phase === 'cross-answer') return `Cross-examination: ${speaker} answers ${other}`;
  return `${PHASE_TITLES[statement.phase as PlannedStatement['phase']]}: ${speaker}`;
}

/** Every statement after preparation, in the order spoken, with attribution. */
export function debateSoFar(state: FormalState, phases?: readonly string[]): string {
  return state.statements
    .filter((statement) => statement.phase !== 'preparation' && statement.phase !== 'digest')
    .filter((statement) => !phases || phases.includes(statement.phase))
    .map((statement) => `### ${statementTitle(state, statement)}\n${statement.text.trim()}`)
    .join('\n\n');
}

/** How the prompts name a side's speaker: its name, or "the negative" when the name is only its model's. */
export function addressedName(scenario: FormalState['scenario'], side: FormalSide): string {
  return speakerName(formalSides(scenario)[side]) || `the ${side}`;
}

/** A debater's name, or its side's when the name is only its model's (debaters picked from the server). */
function speakerName(debater: FormalDebater): string {
  const model = debater.model.replace(/:latest$/, '');
  return debater.name === model || debater.model.startsWith(`${debater.name}:`) ? '' : debater.name;
}

const TASKS: Record<PlannedStatement['phase'], string> = {
  preparation:
    'Prepare your case: study the motion and the background, then write your notes: your three strongest arguments with their evidence, and the objections you expect with your answers. These notes are for you alone.',
  opening: 'Give your opening statement: set out your case clearly and persuasively.',
  rebuttal:
    "Give your rebuttal: answer your opponent's statements point by point and show why your case stands.",
  'cross-question':
    'Cross-examine your opponent: ask two or three pointed questions that expose weaknesses in their opening statement and rebuttal. Ask only questions.',
  'cross-answer':
    'Answer the questions your opponent has just put to you (the last statement above), directly and one by one.',
  closing:
    'Give your closing statement: sum up why your side has won the debate, answering the strongest points made against you.',
};

/**
 * The length a statement is asked for. With a word limit the token cap leaves room for, the limit
 * is the length stated, and what happens past it: a speaker told "cut off after about 375 words"
 * under a 300-word limit writes statements that are cut or sent back for nothing. A tighter token
 * cap is stated as the cap.
 */
export function statedLength(
  maxTokens: number,
  settings: { word_limit?: number | undefined; word_limit_mode: 'truncate' | 'regenerate' },
): string {
  const limit = settings.word_limit;
  if (limit === undefined || limit > wordsFor(maxTokens)) return lengthRequest(maxTokens);
  const aim = Math.max(20, Math.round((limit * 0.8) / 10) * 10);
  const past = settings.word_limit_mode === 'truncate' ? `cut at word ${limit}` : 'sent back to be shortened';
  return `Aim for about ${aim} words; the limit is ${limit} words, and a longer statement is ${past}.`;
}

export function statementMessages(
  state: FormalState,
  item: PlannedStatement,
  maxTokens: number,
): ChatMessage[] {
  const { scenario } = state;
  const sides = formalSides(scenario);
  const name = speakerName(sides[item.side]);
  const debater = sides[item.side];
  const speaking = item.phase !== 'preparation';
  const notes = privateNotes(state, item);
  const task = [
    name ? `Your name: ${name}` : '',
    `You argue for: ${scenario.positions[item.side]}`,
    `You argue against: ${scenario.positions[opposite(item.side)]}`,
    `Your side: the ${item.side} (${item.side === 'affirmative' ? 'in favour of' : 'against'} the motion)`,
    debater.role ? `\n${debater.role.trim()}\n` : '',
    notes ? `${notes}\n` : '',
    `## Your task: ${PHASE_TITLES[item.phase].toLowerCase()}`,
    TASKS[item.phase],
    speaking
      ? `Speak in the first person${name ? ` as ${name}` : ''}, without headings and without writing your name.`
      : '',
    speaking ? statedLength(maxTokens, scenario.statements) : lengthRequest(maxTokens),
  ]
    .filter((line) => line !== '')
    .join('\n');
  return buildMessages(formalSystemPrompt(scenario), publicRecord(state), task);
}

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
  const model = state.scenario.verdict.judge_model ?? formalSides(state.scenario).affirmative.model;
  const samples = [...state.statements, ...state.assessments].map((item) => ({
    model: item.model,
    promptChars: item.promptChars,
    promptTokens: item.promptTokens,
  }));
  return calibrate(samples).get(model) ?? DEFAULT_CHARS_PER_TOKEN;
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

/** The verdict's task, with the sides in the order `first` introduces them. */
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
    'The two sides:',
    ...order.map(introduce),
    '',
    'Score each side on every criterion from 1 to 5, using these guides:',
    criteriaLines(scenario.verdict.criteria),
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
