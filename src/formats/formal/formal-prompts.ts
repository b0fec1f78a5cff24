/**
 * The formal debate's statement prompts (the verdict's and digests' are in formal-verdict-prompts.ts).
 * Seed 001's context rules (a rebuttal gets the opponent's previous statements; a cross-examination
 * question the opponent's opening and rebuttal; a closing statement every previous statement;
 * preparation private to its side) are met by one public record that every call shares, with the
 * speaker's own notes and task after it (decision 021).
 */
import { rulesPlacementFor } from '../../agents/message-layout.js';
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
import type { ChatMessage } from '../../llm/provider.js';
import type { SequenceState } from '../shared/sequence-state.js';
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
export function privateNotes(state: FormalState, item: Pick<PlannedStatement, 'phase' | 'side'>): string {
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

/** The token cap a phase is asked for (preparation has its own), the same on every call that reads it. */
export function phaseMaxTokens(scenario: FormalScenario, phase: PlannedStatement['phase']): number {
  return phase === 'preparation' ? scenario.preparation.max_tokens : scenario.model_options.max_tokens;
}

/**
 * A debater's task for one phase: who it is, then what the phase asks, then the length. `notes`
 * are its preparation notes, written in (the shared record's layout), or `above` when its own
 * conversation already holds them as its answer.
 */
function statementTask(
  state: FormalState,
  item: Pick<PlannedStatement, 'phase' | 'side'>,
  maxTokens: number,
  notes: string | 'above',
): string {
  const { scenario } = state;
  const sides = formalSides(scenario);
  const name = speakerName(sides[item.side]);
  const debater = sides[item.side];
  const speaking = item.phase !== 'preparation';
  const buildsOnNotes = notes === 'above' && (item.phase === 'opening' || item.phase === 'rebuttal');
  return [
    name ? `Your name: ${name}` : '',
    `You argue for: ${scenario.positions[item.side]}`,
    `You argue against: ${scenario.positions[opposite(item.side)]}`,
    `Your side: the ${item.side} (${item.side === 'affirmative' ? 'in favour of' : 'against'} the motion)`,
    debater.role ? `\n${debater.role.trim()}\n` : '',
    notes !== 'above' && notes !== '' ? `${notes}\n` : '',
    `## Your task: ${PHASE_TITLES[item.phase].toLowerCase()}`,
    TASKS[item.phase],
    buildsOnNotes ? 'Build on your prepared notes above (your own; the other side has not seen them).' : '',
    speaking
      ? `Speak in the first person${name ? ` as ${name}` : ''}, without headings and without writing your name.`
      : '',
    speaking ? statedLength(maxTokens, scenario.statements) : lengthRequest(maxTokens),
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/** The public statements among `statements` (not preparation), with their headings. */
function spokenBetween(state: FormalState, statements: readonly StatementEvent[]): string {
  return statements
    .filter((statement) => statement.phase !== 'preparation' && statement.phase !== 'digest')
    .map((statement) => `### ${statementTitle(state, statement)}\n${statement.text.trim()}`)
    .join('\n\n');
}

/** A model name as the server knows it, for telling whether two calls go to the same model. */
const modelKey = (model: string) =>
  model
    .trim()
    .toLowerCase()
    .replace(/:latest$/, '');

/**
 * Whether a debater's model serves nobody else in this debate: not the other side, not the
 * verdict, not the strict-mode moderator. Only then does a server's one slot for that model keep
 * the debater's own conversation from one of its turns to the next.
 */
export function debatesAlone(scenario: FormalScenario, side: FormalSide): boolean {
  const sides = formalSides(scenario);
  const mine = sides[side];
  if (mine.human) return false;
  const others = [
    sides[opposite(side)].human ? undefined : sides[opposite(side)].model,
    scenario.verdict.enabled ? (scenario.verdict.judge_model ?? sides.affirmative.model) : undefined,
    scenario.statements.strict_mode
      ? (scenario.statements.moderator_model ?? scenario.verdict.judge_model ?? sides.affirmative.model)
      : undefined,
  ];
  return others.every((model) => model === undefined || modelKey(model) !== modelKey(mine.model));
}

/**
 * A debater's request. Both layouts give every public statement once, in the order spoken (seed
 * 001's context rules: a rebuttal sees the opponent's statements, a cross-examination question the
 * opponent's opening and rebuttal, a closing every statement), and keep its preparation its own;
 * which one a debater reads depends on what else its model serves (decision 031):
 * - on a model of its own, its own conversation (`ownConversation`);
 * - on a model it shares (with the other side, the judge or the moderator), the public record
 *   every call on that model begins with, then its notes and its task (decision 021).
 */
export function statementMessages(
  state: FormalState,
  item: PlannedStatement,
  maxTokens: number,
): ChatMessage[] {
  if (debatesAlone(state.scenario, item.side)) {
    const conversation = ownConversation(state, item, maxTokens);
    // It holds more than the record (its notes and earlier tasks): when it would not fit the
    // window, the debater reads the record instead, which the window fitter never has to cut.
    if (fitsWindow(state, formalSides(state.scenario)[item.side].model, conversation, maxTokens))
      return conversation;
  }
  return buildMessages(
    formalSystemPrompt(state.scenario),
    publicRecord(state),
    statementTask(state, item, maxTokens, privateNotes(state, item)),
  );
}

/**
 * A debater's own conversation, which only grows at its end: the rules; then, for each of its
 * turns, what was said since its last turn and its task for that turn, with its statement (its
 * preparation notes first) sent back as its own answer. Its next request begins with its last
 * request and that answer, which the server's slot for its model still holds, so it reads afresh
 * only what the other side said since and its new task.
 */
function ownConversation(state: FormalState, item: PlannedStatement, maxTokens: number): ChatMessage[] {
  const { scenario } = state;
  const debater = formalSides(scenario)[item.side];
  const messages: ChatMessage[] = [
    {
      role: rulesPlacementFor(debater.model) === 'first-user' ? 'user' : 'system',
      content: formalSystemPrompt(scenario),
    },
    { role: 'user', content: '## The debate so far\nNo statements have been made yet.' },
  ];
  const spoken = state.statements.filter((statement) => statement.phase !== 'digest');
  const since = (from: number, to: number) => {
    const text = spokenBetween(state, spoken.slice(from, to));
    if (text !== '') messages.push({ role: 'user', content: `## Since your last turn\n${text}` });
  };
  let from = 0;
  spoken.forEach((statement, at) => {
    if (statement.side !== item.side) return;
    const phase = statement.phase as PlannedStatement['phase'];
    since(from, at);
    messages.push({
      role: 'user',
      content: statementTask(state, { phase, side: item.side }, phaseMaxTokens(scenario, phase), 'above'),
    });
    messages.push({ role: 'assistant', content: statement.text.trim() });
    from = at + 1;
  });
  since(from, spoken.length);
  messages.push({ role: 'user', content: statementTask(state, item, maxTokens, 'above') });
  return messages;
}

/** Whether `messages` fit `model`'s window with room for an answer of `maxTokens`, at its measured rate. */
function fitsWindow(state: FormalState, model: string, messages: ChatMessage[], maxTokens: number): boolean {
  const budget = promptBudget(state.scenario.model_options.context_window, maxTokens, WINDOW_MARGIN_TOKENS);
  return estimateTokens(promptChars(messages), modelRate(state, model)) <= budget * 0.95;
}

/** A model's characters per token as measured over the run so far. */
export function modelRate(state: FormalState, model: string): number {
  const samples = [...state.statements, ...state.assessments].map((item) => ({
    model: item.model,
    promptChars: item.promptChars,
    promptTokens: item.promptTokens,
  }));
  return calibrate(samples).get(model) ?? DEFAULT_CHARS_PER_TOKEN;
}
