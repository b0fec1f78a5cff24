/** The duel's prompts: shared rules and transcript first, each participant's task last. */
import { buildMessages, lengthRequest, promptChars, transcriptText } from '../../agents/prompts.js';
import { backgroundText } from '../../config/background-text.js';
import type { DuelScenario } from '../../config/scenario.js';
import { WINDOW_MARGIN_TOKENS } from '../../context/fit-window.js';
import { DEFAULT_CHARS_PER_TOKEN, estimateTokens, promptBudget } from '../../core/token-estimate.js';
import type { ChatMessage } from '../../llm/provider.js';
import type { SequenceState } from '../shared/sequence-state.js';
import { structuredAnswerRoom } from '../shared/structured-call.js';
import { answerBudget } from '../shared/token-budget.js';

export type DuelState = SequenceState<DuelScenario>;
export type DuelSide = 'a' | 'b';

export function sideLabel(scenario: DuelScenario, side: DuelSide): string {
  return `Debater ${side.toUpperCase()}, ${scenario.positions[side]}`;
}

/**
 * How a statement is labelled in the prompts: its side's position. The order the Judge's task
 * lists the sides in is the only thing the side-swapped reading changes, so it shares every
 * message but its task with the calls around it.
 */
const promptLabel = (scenario: DuelScenario, side: DuelSide) => `arguing for ${scenario.positions[side]}`;

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

/** What a condensed round shows when its judgement left no summary: each statement's opening sentences. */
function openingsOf(state: DuelState, round: number): string {
  return state.statements
    .filter((statement) => statement.round === round)
    .map((statement) => {
      const sentences = statement.text.trim().match(/[^.!?]+[.!?]+(\s|$)/g) ?? [statement.text.trim()];
      return `${statement.speaker} opened: ${sentences.slice(0, 2).join('').trim()}`;
    })
    .join(' ');
}

/**
 * The shared transcript. When it would not fit, the oldest rounds are given by the Judge's
 * summary of them instead of verbatim, oldest first, so the prompt stays inside the window: the
 * newest round is always verbatim, and the window fitter (which measures with the same rate) never
 * has to cut the rounds a judge must compare.
 */
function transcriptFor(state: DuelState, upToRound: number, fits: (text: string) => boolean): string {
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
        const summary = typeof verdict?.summary === 'string' ? verdict.summary.trim() : '';
        if (index < condensed) {
          return {
            number,
            title: `Round ${number} (${summary ? "the Judge's summary" : 'the openings of its statements'})`,
            statements: [
              summary
                ? { agent: 'Judge', label: 'summary', text: summary }
                : {
                    agent: 'Moderator',
                    label: 'openings',
                    text: openingsOf(state, number) || '(nothing said)',
                  },
            ],
          };
        }
        return {
          number,
          statements: state.statements
            .filter((statement) => statement.round === number)
            .map((statement) => ({
              agent: statement.speaker,
              label: promptLabel(scenario, statement.side as DuelSide),
              text: statement.text,
            })),
        };
      }),
    });
    if (fits(text) || condensed >= rounds.length - 1) return text;
    condensed += 1;
  }
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

export function debaterMessages(
  state: DuelState,
  side: DuelSide,
  round: number,
  rate?: number,
): ChatMessage[] {
  const { scenario } = state;
  const debater = scenario.debaters[side];
  const other: DuelSide = side === 'a' ? 'b' : 'a';
  const last = round >= scenario.max_rounds;
  const task = [
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
  const reserve = answerBudget(scenario.debater_max_tokens, debater.think === true, scenario.thinking_budget);
  return messagesFor(state, round, task, reserve, rate);
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
  const task = [
    `## Your task: judge round ${round}`,
    `Your name: ${scenario.judge.name}`,
    scenario.judge.role ? scenario.judge.role.trim() : 'You are an impartial debate judge, not a debater.',
    `Judge round ${round} only, against everything said before it: which side argued better in this round? Judge the arguments, not how long they were or who spoke first.`,
    'The two sides, named in your answer exactly as written here:',
    choiceKey(scenario, first),
    choiceKey(scenario, second),
    'Answer only with this JSON object, in this order:',
    `{"summary": "<two neutral sentences: what each side argued in round ${round}>", "why": "<one or two sentences comparing the two sides' arguments in this round>", "stronger": ${choice}, "no_new_arguments": <true if this round brought no new substantive argument, false if it did>}`,
    'Write the summary and your reasons first; then name the stronger side as they show, or "even".',
  ].join('\n');
  const reserve = structuredAnswerRoom(
    scenario.judge_max_tokens,
    scenario.judge.think === true,
    scenario.thinking_budget,
  );
  return messagesFor(state, round, task, reserve, rate);
}

export { promptChars };
