/** The duel's prompts: shared rules and transcript first, each participant's task last. */
import {
  backgroundText,
  buildMessages,
  promptChars,
  transcriptText,
  wordsFor,
} from '../../agents/prompts.js';
import type { DuelScenario } from '../../config/scenario.js';
import { estimateTokens, promptBudget } from '../../context/token-estimate.js';
import type { ChatMessage } from '../../llm/provider.js';
import type { SequenceState } from '../shared/sequence-state.js';

export type DuelState = SequenceState<DuelScenario>;
export type DuelSide = 'a' | 'b';

export function sideLabel(scenario: DuelScenario, side: DuelSide): string {
  return `Debater ${side.toUpperCase()}, ${scenario.positions[side]}`;
}

export function duelSystemPrompt(scenario: DuelScenario): string {
  return [
    'You are taking part in a judged debate duel.',
    `Motion: ${scenario.topic.trim()}`,
    `Side A: ${scenario.positions.a}`,
    `Side B: ${scenario.positions.b}`,
    '',
    '## Rules',
    `- Each round Debater A speaks, then Debater B answers, then the Judge assesses the round; at most ${scenario.max_rounds} rounds.`,
    '- The debate ends early when the Judge finds no new substantive arguments in two consecutive rounds.',
    '- Speak as a debater: address the motion and your opponent directly, in plain prose without headings.',
    backgroundText(scenario.background, scenario.contextFiles),
  ].join('\n');
}

/**
 * The shared transcript. When it would not fit, the oldest rounds are given by the Judge's
 * summary of them instead of verbatim, oldest first, so the prompt stays inside the window.
 */
function transcriptFor(
  state: DuelState,
  upToRound: number,
  budgetTokens: number,
  system: string,
  task: string,
): string {
  const { scenario } = state;
  const rounds = [...new Set(state.statements.map((statement) => statement.round))].filter(
    (round) => round <= upToRound,
  );
  const judgement = (round: number) =>
    state.assessments.find((item) => item.phase === 'judgement' && item.round === round);
  let condensed = 0;
  for (;;) {
    const text = transcriptText({
      summary: null,
      rounds: rounds.map((number, index) => {
        const verdict = judgement(number)?.result;
        const summary = typeof verdict?.summary === 'string' ? verdict.summary : '';
        if (index < condensed) {
          return {
            number,
            title: `Round ${number} (the Judge's summary)`,
            statements: [{ agent: 'Judge', label: 'summary', text: summary || '(no summary)' }],
          };
        }
        return {
          number,
          statements: state.statements
            .filter((statement) => statement.round === number)
            .map((statement) => ({
              agent: statement.speaker,
              label: sideLabel(scenario, statement.side as DuelSide),
              text: statement.text,
            })),
          ...(summary ? { transition: { summary: `The Judge: ${summary}`, focus: '' } } : {}),
        };
      }),
    });
    const size = estimateTokens(system.length + text.length + task.length);
    if (size <= budgetTokens || condensed >= rounds.length - 1) return text;
    condensed += 1;
  }
}

function messagesFor(state: DuelState, round: number, task: string, answerTokens: number): ChatMessage[] {
  const { scenario } = state;
  const system = duelSystemPrompt(scenario);
  const budget = promptBudget(scenario.model_options.context_window, answerTokens, 256);
  return buildMessages(system, transcriptFor(state, round, budget, system, task), task);
}

export function debaterMessages(state: DuelState, side: DuelSide, round: number): ChatMessage[] {
  const { scenario } = state;
  const debater = scenario.debaters[side];
  const other: DuelSide = side === 'a' ? 'b' : 'a';
  const task = [
    `Your name: ${debater.name}`,
    `You argue for: ${scenario.positions[side]}`,
    `You argue against: ${scenario.positions[other]}`,
    `Your side: Debater ${side.toUpperCase()}`,
    debater.role ? `\n${debater.role.trim()}\n` : '',
    `## Your task: round ${round} of ${scenario.max_rounds}`,
    side === 'a'
      ? round === 1
        ? 'Open the debate with your case.'
        : "Answer what was said last round and the Judge's assessment, then advance your case with something new."
      : 'Answer the statement Debater A has just made, then advance your own case.',
    `You have about ${wordsFor(scenario.debater_max_tokens)} words.`,
  ]
    .filter((line) => line !== '')
    .join('\n');
  return messagesFor(state, round, task, scenario.debater_max_tokens);
}

export function judgeMessages(state: DuelState, round: number): ChatMessage[] {
  const { scenario } = state;
  const task = [
    `## Your task: judge round ${round}`,
    `Your name: ${scenario.judge.name}`,
    scenario.judge.role ? scenario.judge.role.trim() : 'You are an impartial debate judge.',
    `Assess round ${round} only, against everything said before it. Which side was stronger in this round, and why?`,
    'Also say whether this round brought no new substantive arguments (no_new_arguments true) or did (false).',
    'Answer only with a JSON object: {"summary": "<two sentences on the round>", "stronger": "a" | "b" | "even", "why": "<one or two sentences>", "no_new_arguments": true | false}',
  ].join('\n');
  return messagesFor(state, round, task, scenario.judge_max_tokens);
}

/**
 * The debate as the side-swapped judge call shows it: Debater B's statements first in every round
 * and under the labels of side A (name, position, letter), A's under B's. An answer from this view
 * names sides by its labels, so "a" there is the run's side b.
 */
export function swappedView(state: DuelState): DuelState {
  const { scenario } = state;
  const flip = (side: string) => (side === 'a' ? 'b' : 'a');
  return {
    ...state,
    scenario: {
      ...scenario,
      positions: { a: scenario.positions.b, b: scenario.positions.a },
      debaters: { a: scenario.debaters.b, b: scenario.debaters.a },
    },
    statements: state.statements
      .map((statement) => ({ ...statement, side: flip(statement.side) }))
      .sort((x, y) => x.round - y.round || x.side.localeCompare(y.side)),
  };
}

export { promptChars };
