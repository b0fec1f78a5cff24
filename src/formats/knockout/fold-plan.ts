/**
 * When the transcript is folded into the running summary, and how far. A fold happens between
 * rounds (after the votes), when the next round's prompts would not fit otherwise, so both speakers
 * and the judges of a round read the same summary. It folds the oldest rounds down to a low-water
 * mark: the debate so far then takes at most about half the room it has in the next round's
 * prompts, and no more than leaves room for the round after the next, so the next fold is at least
 * two rounds away. The latest round stays verbatim when that still leaves the room; in a window that
 * holds about two rounds it does not, and its claims reach the next speaker through the ledger (the
 * open claims, the speaker's memory and focus). Each fold writes one part of the summary (the rounds
 * it folds, in a length that grows with them) after the parts already written, which stay as they
 * are, so the summariser writes little and the prompt's prefix up to them stays cached; when the
 * parts would take too much of the room, a fold rewrites them into one. Everything here is a pure
 * function of the state, so a resumed run plans the same folds.
 */
import { aimWords, transcriptText } from '../../agents/prompts.js';
import { ContextWindowError } from '../../context/context-window-error.js';
import type { Stored, SummaryEvent, TurnEndEvent } from '../../core/events.js';
import { transcriptUpTo, transcriptView } from './knockout-prompts.js';
import { fits, type PlannedCall, promptEstimate, slackChars } from './prompt-fits.js';
import {
  claimsCall,
  claimsModel,
  judgeCall,
  judgesOf,
  speakerOf,
  speakingOrder,
  statementCall,
  statementTokenLimit,
} from './round-calls.js';
import { type KnockoutState, summariserModel, summaryChain } from './state.js';
import {
  type FoldPlan,
  foldsFromLedger,
  ledgerRewrite,
  ledgerSummary,
  summaryMessages,
} from './summary-prompts.js';

/** Words a part of the summary is asked for per round it folds (up to the summary's usual length). */
export const WORDS_PER_ROUND = 60;
/** Characters a summary's word is reckoned to take before it is written (English, generously). */
const CHARS_PER_WORD = 7;
/** After a fold, the debate so far takes at most this share of its room in the next round's prompts. */
export const LOW_WATER = 0.5;
/** The summary's parts together take at most this share of that room; beyond it, a fold rewrites them. */
export const PARTS_SHARE = 0.25;

/** The longest statement so far, in characters: what the next round's statements are reckoned at. */
function projectedStatementChars(state: KnockoutState): number {
  const spoken = state.rounds.flatMap((round) =>
    round.statements.filter((statement) => !statement.degraded).map((statement) => statement.text.length),
  );
  return spoken.length > 0 ? Math.max(...spoken) : statementTokenLimit(state.scenario) * 4;
}

/** The state with round `round` under way and `positions` already spoken, in statements of `chars` characters. */
function projected(
  state: KnockoutState,
  round: number,
  positions: ReadonlyArray<'X' | 'Y'>,
  chars: number,
): KnockoutState {
  const statements = positions.map((position) => {
    const agent = speakerOf(state.scenario, position, state.currentDebater);
    const statement: TurnEndEvent = {
      type: 'turn-end',
      round,
      agent: agent.name,
      position,
      model: agent.model,
      text: 'x'.repeat(chars),
      promptTokens: 0,
      promptChars: 0,
      outputTokens: 0,
      simulatedSeconds: 0,
      truncated: false,
      realMs: 0,
    };
    return { ...statement, seq: 0, at: state.updatedAt };
  });
  return {
    ...state,
    rounds: [
      ...state.rounds,
      { number: round, debater: state.currentDebater, statements, votes: [], end: null },
    ],
  };
}

/** Every call the next round will make, with its statements reckoned as long as the longest so far. */
export function nextRoundCalls(state: KnockoutState): PlannedCall[] {
  const { scenario } = state;
  const round = (state.rounds.at(-1)?.number ?? 0) + 1;
  const debater = state.currentDebater;
  const order = speakingOrder(scenario);
  const chars = projectedStatementChars(state);
  const afterFirst = projected(state, round, order.slice(0, 1), chars);
  const afterBoth = projected(state, round, order, chars);
  const calls: PlannedCall[] = [
    statementCall(state, order[0] as 'X' | 'Y', round, debater),
    statementCall(afterFirst, order[1] as 'X' | 'Y', round, debater),
  ];
  if (scenario.memory.claims === 'model') {
    order.forEach((position, index) => {
      const agent = speakerOf(scenario, position, debater);
      const model = claimsModel(scenario, index, position, debater, agent.model);
      calls.push(claimsCall(index === 0 ? afterFirst : afterBoth, round, agent.name, position, model));
    });
  }
  for (const judge of judgesOf(scenario, debater)) calls.push(judgeCall(afterBoth, judge, round, debater));
  return calls;
}

/** The debate so far, through `finished`, as it would read after `plan` (its summary reckoned by its length). */
function historyAfter(state: KnockoutState, plan: FoldPlan, finished: number): number {
  const summary: SummaryEvent = {
    type: 'summary',
    fromRound: plan.fromRound,
    throughRound: plan.throughRound,
    text: plan.text ?? 'x'.repeat(plan.words * CHARS_PER_WORD),
    model: plan.model,
    promptTokens: 0,
    promptChars: 0,
    outputTokens: 0,
    realMs: 0,
  };
  const folded: KnockoutState = {
    ...state,
    summaries: [...state.summaries, { ...summary, seq: 0, at: state.updatedAt } as Stored<SummaryEvent>],
  };
  return transcriptText(transcriptView(folded, { upToRound: finished })).length;
}

/** What one more round adds to the debate so far, with its statements as long as the longest so far. */
function projectedRoundChars(state: KnockoutState): number {
  const round = (state.rounds.at(-1)?.number ?? 0) + 1;
  const order = speakingOrder(state.scenario);
  const played = projected(state, round, order, projectedStatementChars(state));
  return transcriptUpTo(played, round).length - transcriptUpTo(state, round - 1).length;
}

/**
 * The model that writes a summary between rounds: the configured one, else the model of the
 * round's last call (the commentator's, else the last judge's, else the last speaker's). It is the
 * one loaded, so a machine that holds one model at a time swaps no more than it would anyway, and
 * its prompt cache already holds the whole transcript: only the summariser's task is new to it.
 */
function foldModel(state: KnockoutState): string {
  const { scenario } = state;
  if (scenario.context.summariser_model) return scenario.context.summariser_model;
  const last = state.rounds.at(-1);
  if (scenario.commentary && state.commentary.some((item) => item.round === last?.number))
    return scenario.commentary.model;
  const judge = last && last.votes.length > 0 ? judgesOf(scenario, last.debater).at(-1) : undefined;
  const agent =
    scenario.agents.find((candidate) => candidate.name === judge) ??
    scenario.agents.find((candidate) => candidate.name === last?.statements.at(-1)?.agent);
  return agent?.model ?? summariserModel(scenario, state.currentDebater);
}

/** A fold through `through`: a new part after the existing ones, or one rewrite of them all. */
function foldThrough(state: KnockoutState, through: number, model: string, roomChars: number): FoldPlan {
  const chain = summaryChain(state.summaries);
  const covered = chain.at(-1)?.throughRound ?? 0;
  const most = aimWords(state.scenario.context.summary_max_tokens);
  const words = Math.min(most, WORDS_PER_ROUND * (through - covered));
  const partsChars = chain.reduce((sum, part) => sum + part.text.length, 0);
  const rewrite = chain.length > 0 && partsChars + words * CHARS_PER_WORD > PARTS_SHARE * roomChars;
  if (rewrite) {
    const whole = { fromRound: 1, throughRound: through, words: most, model };
    return foldsFromLedger(state) ? { ...whole, text: ledgerRewrite(state, through) } : whole;
  }
  const part = { fromRound: covered + 1, throughRound: through, words, model };
  return foldsFromLedger(state) ? { ...part, text: ledgerSummary(state, covered + 1, through) } : part;
}

/** The summariser's call for `plan`, folding fewer rounds while its own prompt does not fit. */
function summariseStep(state: KnockoutState, plan: FoldPlan) {
  // A part written from the ledger needs no prompt of its own.
  if (plan.text !== undefined) return { kind: 'summarise' as const, ...plan, messages: [] };
  const chain = summaryChain(state.summaries);
  const covered = chain.at(-1)?.throughRound ?? 0;
  const cap = state.scenario.context.summary_max_tokens;
  let fitted = plan;
  let messages = summaryMessages(state, fitted);
  while (
    fitted.throughRound > covered + 1 &&
    !fits(state, { model: fitted.model, messages, tokenLimit: cap })
  ) {
    const through = fitted.throughRound - 1;
    fitted = {
      ...fitted,
      throughRound: through,
      words:
        fitted.fromRound === 1 ? fitted.words : Math.min(fitted.words, WORDS_PER_ROUND * (through - covered)),
    };
    messages = summaryMessages(state, fitted);
  }
  return { kind: 'summarise' as const, ...fitted, messages };
}

/**
 * The fold to make before the next round, or null: none is needed, or the last summary failed (the
 * round goes ahead with the full text and the next boundary tries again).
 */
export function foldBeforeNextRound(state: KnockoutState) {
  const last = state.rounds.at(-1);
  if (!last?.end || state.summaryFailed) return null;
  const covered = summaryChain(state.summaries).at(-1)?.throughRound ?? 0;
  const finished = last.number;
  if (finished <= covered) return null;
  const calls = nextRoundCalls(state);
  const slack = Math.min(...calls.map((call) => slackChars(state, call)));
  if (slack >= 0) return null;
  const history = transcriptUpTo(state, finished).length;
  // The room the debate so far has in the tightest prompt of the next round, and what a round adds.
  const room = history + slack;
  const round = projectedRoundChars(state);
  // Low enough that the round after the next needs no fold either, and no more than about half the room.
  const lowWater = Math.min(LOW_WATER * room, room - round);
  const model = foldModel(state);
  for (let through = covered + 1; through < finished; through += 1) {
    const plan = foldThrough(state, through, model, room);
    if (historyAfter(state, plan, finished) <= lowWater) return summariseStep(state, plan);
  }
  return summariseStep(state, foldThrough(state, finished, model, room));
}

/**
 * The fold to make in the middle of a round whose next call does not fit after all (a statement far
 * longer than the ones before it): the finished rounds but the latest, or the latest when it is the
 * only one left, on the model of the call that did not fit (it is the one loaded next). As between
 * rounds, parts that would take too much of that call's room are rewritten into one: a second fold
 * in one round must not add a part as long as the rounds it replaces. `what` names the call, for
 * the refusal when nothing is left to fold.
 */
export function foldInRound(state: KnockoutState, currentRound: number, call: PlannedCall, what: string) {
  const covered = summaryChain(state.summaries).at(-1)?.throughRound ?? 0;
  const finished = state.rounds
    .filter((round) => round.end && round.number < currentRound)
    .map((round) => round.number);
  const lastFinished = finished.at(-1) ?? 0;
  const target = lastFinished - 1 > covered ? lastFinished - 1 : lastFinished > covered ? lastFinished : null;
  if (target === null) {
    // A setting, not a failed model: the run stops with exit 3 and says which call and which setting.
    const estimate = promptEstimate(state, call);
    throw new ContextWindowError(
      `the context window is too small: one round does not fit in ${state.scenario.model_options.context_window} tokens: the prompt for ${what}, with the finished rounds summarised and this round's statements whole, comes to about ${estimate.tokens} tokens, and its answer needs ${call.tokenLimit} more (at ${estimate.rate.toFixed(2)} characters per token); raise model_options.context_window (and the server's own window: llama-server -c, vLLM --max-model-len) or lower model_options.max_tokens`,
    );
  }
  const room = transcriptUpTo(state, lastFinished).length + slackChars(state, call);
  return summariseStep(state, foldThrough(state, target, call.model, room));
}
