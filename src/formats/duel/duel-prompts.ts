/** The duel's prompts: shared rules and transcript first, each participant's task last. */
import {
  backgroundText,
  buildMessages,
  lengthRequest,
  promptChars,
  transcriptText,
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

/**
 * The rules every call shares. `swapped` presents side B first (in the sides' list and the order of
 * speaking), as the side-swapped judge call sees the debate under swapped labels.
 */
export function duelSystemPrompt(scenario: DuelScenario, swapped = false): string {
  const [first, second] = swapped ? (['b', 'a'] as const) : (['a', 'b'] as const);
  return [
    'You are taking part in a judged debate duel.',
    `Motion: ${scenario.topic.trim()}`,
    `Side A: ${scenario.positions.a}`,
    `Side B: ${scenario.positions.b}`,
    '',
    '## Rules',
    `- Each round Debater ${first.toUpperCase()} speaks, then Debater ${second.toUpperCase()} answers, then the Judge assesses the round; at most ${scenario.max_rounds} rounds.`,
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
  // Only a condensed round shows the Judge's words, its neutral summary of what was said: no
  // verdict enters a prompt (the Judge must not read its own earlier verdicts as evidence).
  const judgement = (round: number) =>
    state.assessments.find((item) => item.phase === 'judgement' && item.round === round);
  let condensed = 0;
  for (;;) {
    const text = transcriptText({
      summaries: [],
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
        };
      }),
    });
    const size = estimateTokens(system.length + text.length + task.length);
    if (size <= budgetTokens || condensed >= rounds.length - 1) return text;
    condensed += 1;
  }
}

function messagesFor(
  state: DuelState,
  round: number,
  task: string,
  answerTokens: number,
  swapped = false,
): ChatMessage[] {
  const { scenario } = state;
  const system = duelSystemPrompt(scenario, swapped);
  const budget = promptBudget(scenario.model_options.context_window, answerTokens, 256);
  return buildMessages(system, transcriptFor(state, round, budget, system, task), task);
}

/** The Judge's assessment of the round before `round`, told to the debaters only. */
function lastAssessment(state: DuelState, round: number): string {
  const previous = state.assessments.find((item) => item.phase === 'judgement' && item.round === round - 1);
  const result = previous?.result;
  if (!result) return '';
  const stronger = String(result.stronger);
  // Two side-swapped readings that disagree are recorded as even: the reason either gave argues
  // for one side, so it would contradict the verdict the debaters are told.
  const swap = result.side_swap as { agreed?: boolean | null } | undefined;
  if (swap?.agreed === false) {
    return `The Judge found the two sides even in round ${round - 1}: read in both orders, neither side came out ahead.`;
  }
  const who =
    stronger === 'even'
      ? 'found the two sides even'
      : `found Debater ${stronger.toUpperCase()} (${state.scenario.debaters[stronger as DuelSide]?.name ?? stronger}) stronger`;
  return `The Judge ${who} in round ${round - 1}: ${String(result.why ?? '').trim()}`;
}

export function debaterMessages(state: DuelState, side: DuelSide, round: number): ChatMessage[] {
  const { scenario } = state;
  const debater = scenario.debaters[side];
  const other: DuelSide = side === 'a' ? 'b' : 'a';
  const last = round >= scenario.max_rounds;
  const task = [
    `Your name: ${debater.name}`,
    `You argue for: ${scenario.positions[side]}`,
    `You argue against: ${scenario.positions[other]}`,
    `Your side: Debater ${side.toUpperCase()}`,
    debater.role ? `\n${debater.role.trim()}\n` : '',
    `## Your task: round ${round} of ${scenario.max_rounds}`,
    lastAssessment(state, round),
    side === 'a'
      ? round === 1
        ? 'Open the debate with your case.'
        : `Answer what ${scenario.debaters.b.name} said last round, then advance your case with something new.`
      : `Answer the statement ${scenario.debaters.a.name} has just made, then advance your own case.`,
    last ? `This is the last round: end with why ${scenario.positions[side]} should win.` : '',
    `Speak in the first person as ${debater.name}, without headings and without writing your name.`,
    lengthRequest(scenario.debater_max_tokens),
  ]
    .filter((line) => line !== '')
    .join('\n');
  return messagesFor(state, round, task, scenario.debater_max_tokens);
}

export function judgeMessages(state: DuelState, round: number, swapped = false): ChatMessage[] {
  const { scenario } = state;
  const task = [
    `## Your task: judge round ${round}`,
    `Your name: ${scenario.judge.name}`,
    scenario.judge.role ? scenario.judge.role.trim() : 'You are an impartial debate judge, not a debater.',
    `Judge round ${round} only, against everything said before it: which side argued better in this round? Judge the arguments, not how long they were or who spoke first.`,
    'Answer only with this JSON object, in this order:',
    `{"summary": "<two neutral sentences: what each side argued in round ${round}>", "why": "<one or two sentences comparing the two sides' arguments in this round>", "stronger": "a" | "b" | "even", "no_new_arguments": <true if this round brought no new substantive argument, false if it did>}`,
    'Write the summary and your reasons first; then name the stronger side as they show.',
  ].join('\n');
  return messagesFor(state, round, task, scenario.judge_max_tokens, swapped);
}

/**
 * The debate as the side-swapped judge call shows it: the sides' labels exchanged (Debater B's
 * statements under side A's letter and position, A's under B's), in the order they were spoken.
 * An answer from this view names sides by its labels, so "a" there is the run's side b.
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
    statements: state.statements.map((statement) => ({ ...statement, side: flip(statement.side) })),
  };
}

export { promptChars };
