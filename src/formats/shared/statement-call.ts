/**
 * One statement for the formal and duel formats: the model call (retried, with fallbacks), the
 * time limit (a statement still going when it runs out is cut there, kept and marked), the
 * word limit (cut, or ask once for a shorter one) and strict mode (a moderator's check, one
 * regeneration, then kept and flagged). A statement whose every attempt failed becomes a marked
 * emergency response.
 */

import { fittedChat } from '../../context/fitted-call.js';
import type { StatementEvent } from '../../core/events.js';
import { PERSON_MODEL } from '../../core/person-seat.js';
import { addUsage, messageChars, NO_USAGE, recordedTokens } from '../../llm/call-usage.js';
import { ProviderError } from '../../llm/errors.js';
import { firstWords, personTokens, wordsInSeconds } from '../../llm/podium-provider.js';
import type { ChatMessage, ModelProvider } from '../../llm/provider.js';
import { ModelCallFailed, type RetryPolicy, type SafeCallResult } from '../../llm/safe-call.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
import { markIfCut } from '../../timer/speaking-timer.js';
import type { StepContext } from '../format-definition.js';
import { moderate } from './moderator.js';
import { answerBudget, holdToCap } from './token-budget.js';

export interface StatementRequest {
  phase: string;
  round: number;
  speaker: string;
  side: string;
  label: string;
  heading: string;
  model: string;
  fallbackModels: readonly string[];
  temperature: number;
  maxTokens: number;
  contextWindow: number;
  seed: number;
  messages: ChatMessage[];
  policy: RetryPolicy;
  /** Let a thinking model think (its thinking is never kept, and is counted apart), with this many tokens for it. */
  think?: boolean;
  thinkingBudget?: number;
  /**
   * The speaking time a statement may take (a formal statement's time limit): a statement still
   * being written when it runs out is cut there, kept and marked, as the knockout's timer does.
   */
  timeLimitMs?: number;
  wordLimit?: { limit: number; mode: 'truncate' | 'regenerate' };
  /** Strict mode's moderator, and the speaker's name as the debate's prompts give it. */
  moderator?: { model: string; motion: string; speaker?: string };
}

export const WORD_LIMIT_MARKER = '[Word limit reached]';

export function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

export function cutToWords(text: string, limit: number): string {
  return `${firstWords(text, limit)} ${WORD_LIMIT_MARKER}`;
}

export function emergencyText(speaker: string, reason: string): string {
  return `[Emergency response: ${speaker} could not speak this turn because the model failed (${reason}). This is not an argument.]`;
}

export async function produceStatement(
  asked: StatementRequest,
  context: StepContext,
): Promise<Omit<StatementEvent, 'seq' | 'at'>> {
  const request = asked;
  context.notify({
    type: 'turn-start',
    round: request.round,
    agent: request.speaker,
    label: request.label,
    heading: request.heading,
    model: request.model,
    tokenLimit: request.maxTokens,
  });
  const started = context.clock.monotonicMs();
  let attempts = 0;
  let usage = NO_USAGE;
  const base = {
    type: 'statement' as const,
    phase: request.phase,
    round: request.round,
    speaker: request.speaker,
    side: request.side,
  };
  let timeLimited = false;
  const generate = async (messages: ChatMessage[], purpose: string): Promise<SafeCallResult> => {
    const limit = request.timeLimitMs;
    const unheard = { piece: () => undefined, retry: () => undefined };
    if (limit === undefined) return call(messages, purpose, context.signal, unheard);
    // A person's speaking time is counted from their words, not from the time they take to type
    // (docs/podium.md): what would run past the limit is cut there and marked, as a model's is.
    if (request.model === PERSON_MODEL) {
      const answer = await call(messages, purpose, context.signal, unheard);
      const words = wordsInSeconds(limit / 1000);
      timeLimited = countWords(answer.result.text) > words;
      if (!timeLimited) return answer;
      context.logger.warn(
        { speaker: request.speaker, phase: request.phase, limitMs: limit },
        "the person's statement cut at its time limit",
      );
      const text = firstWords(answer.result.text, words);
      return {
        ...answer,
        result: { ...answer.result, text, outputTokens: personTokens(text), stopReason: 'length' },
      };
    }
    // The time limit stops this call, not the run: its own clock beside the run's stop signal.
    const clock = new AbortController();
    const follow = () => clock.abort(context.signal.reason);
    context.signal.addEventListener('abort', follow, { once: true });
    let heard = '';
    let pieces = 0;
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      clock.abort(new DOMException('the statement reached its time limit', 'TimeoutError'));
    }, limit);
    try {
      const answer = await call(messages, purpose, clock.signal, {
        piece: (text) => {
          heard += text;
          pieces += 1;
        },
        // A retry starts the statement again: only the attempt the time ran out on is kept.
        retry: () => {
          heard = '';
          pieces = 0;
        },
      });
      timeLimited = false;
      return answer;
    } catch (error) {
      if (!expired || context.signal.aborted) throw error;
      if (heard.trim() === '') {
        // Nothing was said in the time allowed: a failed turn, as any call that timed out.
        const timedOut = new ProviderError(
          'timeout',
          `${request.model} said nothing within the statement's time limit of ${limit / 1000} s`,
          { host: context.provider.host, model: request.model, cause: error },
        );
        throw new ModelCallFailed(timedOut, 1);
      }
      // What was said before the time ran out stands. The server never finished, so it never
      // sent its count: each streamed piece is about one token, and the prompt it had read (it
      // was writing the answer) is counted by its own tokenizer where it has one.
      timeLimited = true;
      context.logger.warn(
        { speaker: request.speaker, phase: request.phase, limitMs: limit },
        'statement cut at its time limit',
      );
      const read = await readPromptTokens(context.provider, request.model, messages);
      const cutUsage = {
        promptTokens: read,
        outputTokens: pieces,
        promptChars: read > 0 ? messageChars(messages) : 0,
      };
      attempts += 1;
      usage = addUsage(usage, cutUsage);
      return {
        model: request.model,
        attempts: 1,
        usage: cutUsage,
        result: {
          text: heard,
          model: request.model,
          promptTokens: read,
          outputTokens: pieces,
          stopReason: 'length',
          timings: { totalMs: limit, loadMs: 0, promptEvalMs: 0, evalMs: 0 },
        },
      };
    } finally {
      clearTimeout(timer);
      context.signal.removeEventListener('abort', follow);
    }
  };
  const call = async (
    messages: ChatMessage[],
    purpose: string,
    signal: AbortSignal,
    heard: { piece: (text: string) => void; retry: () => void },
  ): Promise<SafeCallResult> => {
    const answer = await fittedChat(
      context.provider,
      {
        model: request.model,
        messages,
        maxTokens: answerBudget(request.maxTokens, request.think, request.thinkingBudget),
        contextWindow: request.contextWindow,
        temperature: request.temperature,
        seed: derivedSeed(
          request.seed,
          `${request.phase}:round-${request.round}:${request.speaker}:${purpose}`,
        ),
        ...(request.think ? { think: true } : {}),
      },
      {
        what: `${request.speaker}'s ${request.phase}`,
        ...(context.tokenRates ? { rates: context.tokenRates } : {}),
        policy: request.policy,
        signal,
        fallbackModels: request.fallbackModels,
        onDelta: (text) => {
          heard.piece(text);
          context.notify({ type: 'turn-delta', round: request.round, agent: request.speaker, text });
        },
        onRetry: ({ model, attempt, delayMs, error }) => {
          heard.retry();
          context.notify({
            type: 'retry',
            what: `${request.speaker} (${model})`,
            attempt,
            delayMs,
            reason: error.kind,
          });
        },
      },
    );
    attempts += answer.attempts;
    usage = addUsage(usage, answer.usage);
    return answer;
  };
  // The thinking budget is on top of the answer's cap: the answer itself is held to the cap.
  const spoken = (answer: SafeCallResult) =>
    holdToCap(
      answer.result.text.trim(),
      answer.result.outputTokens - (answer.result.thinkingTokens ?? 0),
      request.maxTokens,
    );
  // Asked again with its own statement in front of it, so the model shortens or mends that text.
  const again = (text: string, instruction: string): ChatMessage[] => [
    ...request.messages,
    { role: 'assistant', content: text },
    { role: 'user', content: instruction },
  ];
  try {
    let answer = await generate(request.messages, 'first');
    let held = spoken(answer);
    let text = held.text;
    let regenerated = false;
    let flagged: string | undefined;
    const limit = request.wordLimit;
    if (limit && limit.mode === 'regenerate' && countWords(text) > limit.limit) {
      answer = await generate(
        again(
          text,
          `That statement has ${countWords(text)} words; the limit is ${limit.limit}. Shorten it to at most ${limit.limit} words: keep its strongest points and its ending, cut the rest. Give only the shortened statement.`,
        ),
        'shorter',
      );
      held = spoken(answer);
      text = held.text;
      regenerated = true;
    }
    if (request.moderator) {
      // Read as it will be recorded: a statement the clock cut carries its marker.
      const verdict = await moderate(
        request.moderator,
        request.speaker,
        markIfCut(text, timeLimited),
        request,
        context,
      );
      if (!verdict.passed) {
        answer = await generate(
          again(
            text,
            `The moderator objected to that statement: ${verdict.reason}. Give your statement again, on the motion and following debate conventions.`,
          ),
          'moderated',
        );
        held = spoken(answer);
        text = held.text;
        regenerated = true;
        const second = await moderate(
          request.moderator,
          request.speaker,
          markIfCut(text, timeLimited),
          request,
          context,
        );
        if (!second.passed) flagged = second.reason;
      }
    }
    const wordLimited = limit !== undefined && countWords(text) > limit.limit;
    if (wordLimited && limit) text = cutToWords(text, limit.limit);
    else if (timeLimited) text = markIfCut(text, true);
    return {
      ...base,
      model: answer.model,
      text,
      ...recordedTokens(usage),
      realMs: Math.round(context.clock.monotonicMs() - started),
      attempts,
      truncated: answer.result.stopReason === 'length' || held.cut,
      ...(usage.thinkingTokens ? { thinkingTokens: usage.thinkingTokens } : {}),
      ...(wordLimited ? { wordLimited } : {}),
      ...(timeLimited ? { timeLimited } : {}),
      ...(regenerated ? { regenerated } : {}),
      ...(flagged ? { flagged } : {}),
      ...(answer.fallbackFrom ? { fallbackFrom: answer.fallbackFrom } : {}),
    };
  } catch (error) {
    if (!(error instanceof ModelCallFailed)) throw error;
    context.logger.error(
      { speaker: request.speaker, phase: request.phase, error: error.message },
      'statement degraded',
    );
    return {
      ...base,
      model: request.model,
      text: emergencyText(request.speaker, error.last.kind),
      ...recordedTokens(addUsage(usage, error.usage)),
      realMs: Math.round(context.clock.monotonicMs() - started),
      attempts: attempts + error.attempts,
      truncated: false,
      degraded: true,
      failureReason: error.message,
    };
  }
}

/**
 * The tokens of `messages` as `model`'s server counts them (its tokenizer, the messages' text with
 * a line between them), for a call cut before the server said; 0 where the server has no tokenizer.
 */
async function readPromptTokens(
  provider: ModelProvider,
  model: string,
  messages: readonly ChatMessage[],
): Promise<number> {
  const text = messages.map((message) => message.content).join('\n');
  const counted = await provider.countTokens?.(model, text).catch(() => undefined);
  return counted !== undefined && counted > 0 ? counted : 0;
}
