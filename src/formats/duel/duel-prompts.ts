/** The duel's prompts: the rules every call shares, the transcript or a debater's own conversation, each participant's task last. */
import { rulesPlacementFor } from '../../agents/message-layout.js';
import { buildMessages, lengthRequest, promptChars } from '../../agents/prompts.js';
import { backgroundText } from '../../config/background-text.js';
import type { DuelScenario } from '../../config/scenario.js';
import { WINDOW_MARGIN_TOKENS } from '../../context/fit-window.js';
import { BRIEF_THINKING } from '../../context/fitted-call.js';
import { seatModel } from '../../core/person-seat.js';
import { DEFAULT_CHARS_PER_TOKEN, estimateTokens, promptBudget } from '../../core/token-estimate.js';
import type { ChatMessage } from '../../llm/provider.js';
import type { SequenceState } from '../shared/sequence-state.js';
import { structuredAnswerRoom } from '../shared/structured-call.js';
import { answerBudget } from '../shared/token-budget.js';
import { debaterConversation } from './debater-conversation.js';
import { transcriptFor } from './duel-transcript.js';

export type DuelState = SequenceState<DuelScenario>;
export type DuelSide = 'a' | 'b';

export function sideLabel(scenario: DuelScenario, side: DuelSide): string {
  return `Debater ${side.toUpperCase()}, ${scenario.positions[side]}`;
}

/** The rules every call shares, the Judge's two readings included. */
export function duelSystemPrompt(scenario: DuelScenario): string {
  const { a, b } = scenario.debaters;
  return [
    'You are taking part in a judged debate duel.',
    `Motion: ${scenario.topic.trim()}`,
    '',
    '## Rules',
    '- The debate ends early when the Judge finds no new substantive arguments in two consecutive rounds.',
    '- Speak as a debater: address the motion and your opponent directly, in plain prose without headings.',
    backgroundText(scenario.background, scenario.contextFiles),
    '## Sides',
    `- ${a.name} argues for: ${scenario.positions.a}`,
    `- ${b.name} argues for: ${scenario.positions.b}`,
    `- Each round ${a.name} speaks, then ${b.name} answers, then the Judge assesses the round; at most ${scenario.max_rounds} rounds.`,
  ].join('\n');
}

/**
 * A prompt whose transcript is sized for the window as the window fitter will measure it: the
 * model's measured characters per token (`rate`), and `reserve` tokens kept for the answer.
 */
function messagesFor(
  state: DuelState,
  round: number,
  task: string,
  reserve: number,
  rate = DEFAULT_CHARS_PER_TOKEN,
): ChatMessage[] {
  const { scenario } = state;
  const system = duelSystemPrompt(scenario);
  const budget = promptBudget(scenario.model_options.context_window, reserve, WINDOW_MARGIN_TOKENS);
  const fits = (text: string) =>
    estimateTokens(promptChars(buildMessages(system, text, task)), rate) <= budget;
  return buildMessages(system, transcriptFor(state, round, fits), task);
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
      : `found ${state.scenario.debaters[stronger as DuelSide]?.name ?? stronger} (arguing for ${state.scenario.positions[stronger as DuelSide] ?? stronger}) stronger`;
  return `The Judge ${who} in round ${round - 1}: ${String(result.why ?? '').trim()}`;
}

/** The debater's task in `round`: who it is, the Judge's view of the round before, what to do. */
function debaterTask(state: DuelState, side: DuelSide, round: number): string {
  const { scenario } = state;
  const debater = scenario.debaters[side];
  const other: DuelSide = side === 'a' ? 'b' : 'a';
  const last = round >= scenario.max_rounds;
  return [
    `Your name: ${debater.name}`,
    `You argue for: ${scenario.positions[side]}`,
    `You argue against: ${scenario.positions[other]}`,
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
}

/** `llama3` and `llama3:latest` are one model, as Ollama resolves them. */
const sameModel = (first: string, second: string) =>
  first.replace(/:latest$/, '') === second.replace(/:latest$/, '');

/**
 * Whether a debater's model serves no other seat of the duel: then its server slot keeps the
 * debater's own last prompt and answer, and the debater's own conversation is what it can reuse.
 * A model that also serves the opponent or the Judge keeps the other seat's call in between, and
 * what they share is the transcript.
 */
export function hasOwnModel(scenario: DuelScenario, side: DuelSide): boolean {
  const model = seatModel(scenario.debaters[side]);
  const others = [seatModel(scenario.debaters[side === 'a' ? 'b' : 'a']), scenario.judge.model];
  return !others.some((other) => sameModel(other, model));
}

/**
 * A debater's prompt. On a model of its own, its own conversation (debater-conversation.ts): its
 * earlier statements as its own turns, each request the previous one with its answer and the next
 * turn added. On a model shared with another seat, the layout every seat shares: the rules, the
 * transcript, its task. When even the conversation of its round alone would not fit the window,
 * the shared layout, whose transcript the window fitter can cut.
 */
export function debaterMessages(
  state: DuelState,
  side: DuelSide,
  round: number,
  rate?: number,
): ChatMessage[] {
  const { scenario } = state;
  const debater = scenario.debaters[side];
  const thinks = debater.think === true && debater.human !== true;
  const reserve = answerBudget(scenario.debater_max_tokens, debater.think === true, scenario.thinking_budget);
  if (hasOwnModel(scenario, side)) {
    const budget = promptBudget(scenario.model_options.context_window, reserve, WINDOW_MARGIN_TOKENS);
    const conversation = debaterConversation(state, side, round, {
      system: duelSystemPrompt(scenario),
      placement: rulesPlacementFor(seatModel(debater)),
      // A thinking model's request for brief thinking goes into every turn, as the call adds it
      // to the last one, so that an earlier turn reads as it was sent.
      task: (turn) => {
        const task = debaterTask(state, side, turn);
        return thinks ? `${task}\n\n${BRIEF_THINKING}` : task;
      },
      fits: (messages) => estimateTokens(promptChars(messages), rate ?? DEFAULT_CHARS_PER_TOKEN) <= budget,
    });
    if (conversation) return conversation;
  }
  return messagesFor(state, round, debaterTask(state, side, round), reserve, rate);
}

/**
 * The words the Judge's answer names each side by: the debaters' names, or their positions when
 * the names cannot tell them apart, or "Debater A" and "Debater B" when neither can. The same words
 * in both side-swapped readings, so a model that keys on them answers for the debater it means
 * whichever reading it is in (letters that a second reading redefines are easy to answer backwards).
 */
export function judgeChoiceLabels(scenario: DuelScenario): Record<DuelSide, string> {
  const usable = (first: string, second: string) => {
    const [one, two] = [first.trim().toLowerCase(), second.trim().toLowerCase()];
    return one !== '' && two !== '' && one !== two && one !== 'even' && two !== 'even';
  };
  const { a, b } = scenario.debaters;
  if (usable(a.name, b.name)) return { a: a.name.trim(), b: b.name.trim() };
  if (usable(scenario.positions.a, scenario.positions.b)) {
    return { a: scenario.positions.a.trim(), b: scenario.positions.b.trim() };
  }
  return { a: 'Debater A', b: 'Debater B' };
}

/** A key line of the Judge's task: the word it answers with, and whom it names. */
function choiceKey(scenario: DuelScenario, side: DuelSide): string {
  const label = judgeChoiceLabels(scenario)[side];
  const debater = scenario.debaters[side].name.trim();
  const position = scenario.positions[side];
  if (label === debater) return `- "${label}": arguing for ${position}`;
  if (label === position.trim()) return `- "${label}": the side ${debater} argues`;
  return `- "${label}": ${debater}, arguing for ${position}`;
}

export function judgeMessages(
  state: DuelState,
  round: number,
  swapped = false,
  rate?: number,
): ChatMessage[] {
  const { scenario } = state;
  // The side-swapped reading lists the sides the other way round; each keeps its own name.
  const [first, second] = swapped ? (['b', 'a'] as const) : (['a', 'b'] as const);
  const labels = judgeChoiceLabels(scenario);
  const choice = `${JSON.stringify(labels[first])} | ${JSON.stringify(labels[second])} | "even"`;
  // What the two readings share comes first; they differ from the stronger side's choice on, the
  // task's last lines, so a slot that holds one reading serves all but those lines of the other.
  const task = [
    `## Your task: judge round ${round}`,
    `Your name: ${scenario.judge.name}`,
    scenario.judge.role ? scenario.judge.role.trim() : 'You are an impartial debate judge, not a debater.',
    `Judge round ${round} only, against everything said before it: which side argued better in this round? Judge the arguments, not how long they were or who spoke first.`,
    'Answer only with this JSON object, in this order:',
    `{"summary": "<two neutral sentences: what each side argued in round ${round}>", "why": "<one or two sentences comparing the two sides' arguments in this round>", "no_new_arguments": <true if this round brought no new substantive argument, false if it did>, "stronger": ${choice}}`,
    'Write the summary and your reasons first; then name the stronger side as they show, or "even". The two sides, named in your answer exactly as written here:',
    choiceKey(scenario, first),
    choiceKey(scenario, second),
  ].join('\n');
  const reserve = structuredAnswerRoom(
    scenario.judge_max_tokens,
    scenario.judge.think === true,
    scenario.thinking_budget,
  );
  return messagesFor(state, round, task, reserve, rate);
}

export { promptChars };
