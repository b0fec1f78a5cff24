/**
 * One structured answer from a model (a judge's evaluation or verdict, a council role's position,
 * a claims extraction): sent with its JSON schema, read leniently, and repaired once. The repair
 * shows the model the start of what it wrote and what was wrong, asks for shorter text, and gives
 * it more room, so an answer cut off at its cap is not cut off again. Every unusable answer is
 * kept in the outcome (its cause and the start of its text) for the run's record.
 */
import type { z } from 'zod';
import { fittedChat } from '../../context/fitted-call.js';
import type { AnswerProblem, ClampedNumber } from '../../core/events.js';
import { readStructuredAnswer } from '../../judging/structured-answer.js';
import { addUsage, type CallUsage, NO_USAGE } from '../../llm/call-usage.js';
import type { ChatMessage } from '../../llm/provider.js';
import { ModelCallFailed, type RetryPolicy } from '../../llm/safe-call.js';
import type { StepContext } from '../format-definition.js';
import { answerBudget } from './token-budget.js';

/** How much of an unusable answer the record keeps, and how much the repair shows the model. */
const KEPT_CHARS = 2000;
const SHOWN_CHARS = 400;
/** The repair's cap, against the first call's. */
const REPAIR_ROOM = 1.5;
const ATTEMPTS = 2;

/**
 * The tokens a structured call's prompt must leave free in its window: the repair's larger cap, and
 * room for the start of the unusable answer and the request to mend it that the repair adds. A
 * prompt sized with it is never cut by the window fitter, on the first call or on its repair.
 */
export function structuredAnswerRoom(cap: number, think?: boolean, thinkingBudget?: number): number {
  return answerBudget(Math.round(cap * REPAIR_ROOM), think, thinkingBudget) + REPAIR_PROMPT_TOKENS;
}

/** Tokens of what a repair adds to the prompt: the shown start of the answer and the request. */
const REPAIR_PROMPT_TOKENS = 250;

export interface StructuredRequest<T> {
  /** Who answers, for notices and logs: "Ada's evaluation". */
  what: string;
  model: string;
  fallbackModels: readonly string[];
  messages: ChatMessage[];
  schema: z.ZodType<T>;
  jsonSchema: Record<string, unknown>;
  /** The answer's own cap; a thinking model gets its thinking budget on top. */
  maxTokens: number;
  contextWindow: number;
  temperature: number;
  /** The seed of each attempt (a repair is a different request). */
  seedOf: (attempt: number) => number;
  policy: RetryPolicy;
  think?: boolean;
  thinkingBudget?: number;
  /** Called before a repair, with what was wrong. */
  onRepair?: (problem: string) => void;
  /** Tokens kept free besides the answer's cap; default fit-window's margin. */
  marginTokens?: number;
}

export interface StructuredOutcome<T> {
  value: T | null;
  model: string;
  fallbackFrom?: string;
  /** Model calls made, retries included. */
  attempts: number;
  /** What the server counted over every call made (prompt, cached and output tokens). */
  usage: CallUsage;
  /** Every unusable answer, in order. */
  problems: AnswerProblem[];
  /** Numbers of the answer used that were outside their bounds, and held to them. */
  clamped?: ClampedNumber[];
  /** Set when the model could not be called at all (after retries and fallbacks). */
  callFailed?: string;
  /** Why there is no value. */
  reason?: string;
}

/** The message that asks again: the start of the unusable answer, what was wrong, and how to fix it. */
export function repairMessages(base: ChatMessage[], text: string, problem: AnswerProblem): ChatMessage[] {
  const shown = text.trim().slice(0, SHOWN_CHARS);
  const fix =
    problem.cause === 'cut-at-cap'
      ? 'Reply again with the whole JSON object, keeping every text field short (one or two sentences) so it ends well before the limit.'
      : problem.cause === 'not-json'
        ? 'Reply again with only the JSON object: no fence, no words before or after it.'
        : 'Reply again with only the JSON object, every field filled as asked; keep text fields short.';
  return [
    ...base,
    ...(shown === ''
      ? []
      : [
          { role: 'assistant' as const, content: `${shown}${text.trim().length > shown.length ? ' …' : ''}` },
        ]),
    { role: 'user', content: `That answer could not be used: ${problem.problem}. ${fix}` },
  ];
}

export async function askStructured<T>(
  request: StructuredRequest<T>,
  context: StepContext,
): Promise<StructuredOutcome<T>> {
  const outcome: StructuredOutcome<T> = {
    value: null,
    model: request.model,
    attempts: 0,
    usage: NO_USAGE,
    problems: [],
  };
  let messages = request.messages;
  let cap = request.maxTokens;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const numPredict = answerBudget(cap, request.think, request.thinkingBudget);
    let text: string;
    let stopReason: 'stop' | 'length';
    try {
      const answer = await fittedChat(
        context.provider,
        {
          model: request.model,
          messages,
          maxTokens: numPredict,
          contextWindow: request.contextWindow,
          temperature: request.temperature,
          seed: request.seedOf(attempt),
          jsonSchema: request.jsonSchema,
          ...(request.think ? { think: true } : {}),
        },
        {
          what: request.what,
          ...(context.tokenRates ? { rates: context.tokenRates } : {}),
          ...(request.marginTokens === undefined ? {} : { marginTokens: request.marginTokens }),
          policy: request.policy,
          signal: context.signal,
          fallbackModels: request.fallbackModels,
          onRetry: ({ model, attempt: retry, delayMs, error }) => {
            context.logger.warn(
              { what: request.what, model, attempt: retry, delayMs, error: error.message, kind: error.kind },
              'model call retried',
            );
            context.notify({
              type: 'retry',
              what: `${request.what} (${model})`,
              attempt: retry,
              delayMs,
              reason: error.kind,
            });
          },
        },
      );
      outcome.attempts += answer.attempts;
      outcome.model = answer.model;
      if (answer.fallbackFrom) outcome.fallbackFrom = answer.fallbackFrom;
      else delete outcome.fallbackFrom;
      outcome.usage = addUsage(outcome.usage, answer.usage);
      text = answer.result.text;
      stopReason = answer.result.stopReason;
    } catch (error) {
      if (!(error instanceof ModelCallFailed)) throw error;
      outcome.attempts += error.attempts;
      outcome.usage = addUsage(outcome.usage, error.usage);
      outcome.callFailed = error.message;
      outcome.reason = `model call failed: ${error.message}`;
      return outcome;
    }
    const read = readStructuredAnswer(text, request.schema, stopReason);
    if (read.ok) {
      outcome.value = read.value;
      if (read.clamped && read.clamped.length > 0) {
        outcome.clamped = read.clamped;
        context.logger.warn({ what: request.what, clamped: read.clamped }, 'numbers held to their bounds');
      }
      delete outcome.reason;
      return outcome;
    }
    const problem: AnswerProblem = {
      cause: read.cause,
      problem: read.problem,
      raw: text.slice(0, KEPT_CHARS),
    };
    outcome.problems.push(problem);
    outcome.reason = `unusable answer: ${read.problem}`;
    context.logger.warn(
      { what: request.what, attempt, cause: read.cause, problem: read.problem },
      'structured answer unusable',
    );
    if (attempt < ATTEMPTS) {
      request.onRepair?.(read.problem);
      messages = repairMessages(request.messages, text, problem);
      cap = Math.round(cap * REPAIR_ROOM);
    }
  }
  return outcome;
}
