/**
 * The formal debate's prompts, following seed 001's context rules exactly: a rebuttal gets the
 * opponent's previous statements; a cross-examination question gets the opponent's opening and
 * rebuttal; a closing statement gets every previous statement; preparation is private to its side.
 */
import { backgroundText, buildMessages, wordsFor } from '../../agents/prompts.js';
import type { FormalScenario } from '../../config/scenario.js';
import type { StatementEvent } from '../../core/events.js';
import type { ChatMessage } from '../../llm/provider.js';
import type { SequenceState } from '../shared/sequence-state.js';
import {
  type FormalSide,
  formalSides,
  opposite,
  PHASE_TITLES,
  type PlannedStatement,
} from './formal-plan.js';

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

function block(title: string, statement: StatementEvent | undefined): string {
  return statement ? `## ${title}\n${statement.text.trim()}` : '';
}

/** What this statement may see, per the context rules. */
export function contextFor(state: FormalState, item: PlannedStatement): string {
  const own = item.side;
  const other = opposite(own);
  const parts: string[] = [];
  switch (item.phase) {
    case 'preparation':
      parts.push('No statements have been made yet.');
      break;
    case 'opening':
      parts.push(block('Your prepared case', said(state, own, 'preparation')));
      break;
    case 'rebuttal': {
      parts.push(block('Your prepared case', said(state, own, 'preparation')));
      const opponent = state.statements.filter(
        (statement) => statement.side === other && statement.phase !== 'preparation',
      );
      parts.push(
        `## Your opponent's statements so far\n${opponent.map((statement) => statement.text.trim()).join('\n\n')}`,
      );
      break;
    }
    case 'cross-question':
      parts.push(block("Your opponent's opening statement", said(state, other, 'opening')));
      parts.push(block("Your opponent's rebuttal", said(state, other, 'rebuttal')));
      break;
    case 'cross-answer':
      parts.push(block('Your opening statement', said(state, own, 'opening')));
      parts.push(block('Your rebuttal', said(state, own, 'rebuttal')));
      parts.push(block('The questions your opponent has put to you', said(state, other, 'cross-question')));
      break;
    case 'closing':
      parts.push(`## The debate so far\n${debateSoFar(state)}`);
      break;
  }
  return parts.filter((part) => part !== '').join('\n\n');
}

/** Every statement after preparation, in order, with attribution. */
export function debateSoFar(state: FormalState, first?: FormalSide): string {
  const sides = formalSides(state.scenario);
  const spoken = state.statements.filter((statement) => statement.phase !== 'preparation');
  return (first ? presentedOrder(spoken, first) : spoken)
    .map((statement) => {
      const side = statement.side as FormalSide;
      return `### ${PHASE_TITLES[statement.phase as PlannedStatement['phase']]}: ${sides[side].name} (${sideLabel(state.scenario, side)})\n${statement.text.trim()}`;
    })
    .join('\n\n');
}

const PHASE_RANK: Record<string, number> = {
  opening: 0,
  rebuttal: 1,
  'cross-question': 2,
  'cross-answer': 2,
  closing: 3,
};

/**
 * The statements phase by phase with `first`'s side before the other's; a cross-examination
 * exchange (a question and its answer) moves as one, led by the side that asked.
 */
function presentedOrder(statements: StatementEvent[], first: FormalSide): StatementEvent[] {
  const leader = (statement: StatementEvent) =>
    statement.phase === 'cross-answer'
      ? opposite(statement.side as FormalSide)
      : (statement.side as FormalSide);
  const key = (statement: StatementEvent) => [
    PHASE_RANK[statement.phase] ?? 4,
    leader(statement) === first ? 0 : 1,
    statement.phase === 'cross-answer' ? 1 : 0,
  ];
  return [...statements].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let at = 0; at < x.length; at += 1) {
      const difference = (x[at] ?? 0) - (y[at] ?? 0);
      if (difference !== 0) return difference;
    }
    return 0;
  });
}

const TASKS: Record<PlannedStatement['phase'], string> = {
  preparation:
    'Prepare your case: study the motion and the background, then write your notes: your three strongest arguments with their evidence, and the objections you expect with your answers. These notes are for you alone.',
  opening: 'Give your opening statement: set out your case clearly and persuasively.',
  rebuttal:
    "Give your rebuttal: answer your opponent's statements point by point and show why your case stands.",
  'cross-question':
    'Cross-examine your opponent: ask two or three pointed questions that expose weaknesses in their opening statement and rebuttal. Ask only questions.',
  'cross-answer': 'Answer the questions your opponent has put to you, directly and one by one.',
  closing:
    'Give your closing statement: sum up why your side has won the debate, answering the strongest points made against you.',
};

export function statementMessages(
  state: FormalState,
  item: PlannedStatement,
  maxTokens: number,
): ChatMessage[] {
  const { scenario } = state;
  const sides = formalSides(scenario);
  const debater = sides[item.side];
  const words = scenario.statements.word_limit ?? wordsFor(maxTokens);
  const task = [
    `Your name: ${debater.name}`,
    `You argue for: ${scenario.positions[item.side]}`,
    `You argue against: ${scenario.positions[opposite(item.side)]}`,
    `Your side: the ${item.side} (${item.side === 'affirmative' ? 'in favour of' : 'against'} the motion)`,
    debater.role ? `\n${debater.role.trim()}\n` : '',
    `## Your task: ${PHASE_TITLES[item.phase].toLowerCase()}`,
    TASKS[item.phase],
    `Use at most ${words} words.`,
  ]
    .filter((line) => line !== '')
    .join('\n');
  return buildMessages(formalSystemPrompt(scenario), contextFor(state, item), task);
}

/**
 * The judge's prompt, with the sides presented in the debate's order or, for the side-swapped
 * second call, the negative first: in the motion's header, in each phase and in the answer format.
 */
export function verdictMessages(state: FormalState, first: FormalSide = 'affirmative'): ChatMessage[] {
  const { scenario } = state;
  const criteria = Object.entries(scenario.verdict.criteria)
    .map(
      ([name, criterion]) =>
        `- ${name} (weight ${criterion.weight})${criterion.description ? `: ${criterion.description}` : ''}`,
    )
    .join('\n');
  const names = Object.keys(scenario.verdict.criteria);
  const order: FormalSide[] = [first, opposite(first)];
  const scores = `{${names.map((name) => `"${name}": <1-5>`).join(', ')}}`;
  const task = [
    '## Your task: the verdict',
    'You are an impartial judge, separate from the debate. Score each side on every criterion from 1 to 5, then name the winner: the side with the higher weighted total.',
    criteria,
    `Answer only with a JSON object: {"summary": "<two sentences>", ${order.map((side) => `"${side}": ${scores}`).join(', ')}, "reasons": "<why>", "winner": ${order.map((side) => `"${side}"`).join(' | ')}}`,
  ].join('\n');
  const system =
    first === 'affirmative'
      ? formalSystemPrompt(scenario)
      : formalSystemPrompt(scenario).replace(
          /^(Affirmative: .*)\n(Negative: .*)$/m,
          (_line, affirmative: string, negative: string) => `${negative}\n${affirmative}`,
        );
  return buildMessages(system, `## The debate\n${debateSoFar(state, first)}`, task);
}
