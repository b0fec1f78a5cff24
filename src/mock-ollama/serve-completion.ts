/**
 * The /api/chat, /api/generate and /v1/chat/completions handler: validate, apply the script, then
 * either play a fault or run the request through the slot scheduler and deliver the answer with
 * simulated timings, on the wire the request came in on.
 */
import type { ServerResponse } from 'node:http';
import type { Catalog } from './catalog.js';
import { splitPieces } from './chunks.js';
import { composeAnswer, type Endpoint, parseCompletion, promptTokensFor, requestSeed } from './completion.js';
import { deliver } from './deliver.js';
import { playFault } from './faults.js';
import type { GpuClock } from './gpu-clock.js';
import { sendError, sleep } from './http.js';
import {
  deliverOpenAi,
  parseOpenAiCompletion,
  sendOpenAiError,
  sendOverflow,
  wantsUsage,
} from './openai-api.js';
import { flavourOf, openAiContextLength, openAiEntry, openAiModelId } from './openai-models.js';
import { clockPace } from './pace.js';
import { type CostProfile, simulateTimes } from './profiles.js';
import type { SpeechLength } from './prose.js';
import { createRng } from './random.js';
import { QueueAbortedError, type Scheduler } from './scheduler.js';
import type { ScriptBook } from './script.js';
import { isLoadRequest, serveLoad } from './serve-load.js';
import type { ServerSettings } from './server-settings.js';
import type { StatsBook } from './stats.js';
import type { TemplateChoice } from './template-choice.js';
import { tokenId, tokenizerOf } from './tokens.js';
import type { RecordedRequest } from './types.js';

/** Server-wide state the completion handler works with. */
export interface CompletionState {
  catalog: Catalog;
  script: ScriptBook;
  scheduler: Scheduler;
  /** The simulated GPU every request's prompt reading and decoding runs on. */
  gpu: GpuClock;
  stats: StatsBook;
  profile: CostProfile;
  speed: number;
  /** The window the /v1 side gives every model; undefined: each model's own length. */
  openAiContextLength?: number;
  settings: ServerSettings;
  /** The chat template each model's prompts are rendered with on the Ollama endpoints. */
  templates: TemplateChoice;
  /** Length of debate speeches in words; undefined: short speeches. */
  speech?: SpeechLength;
}

/** Answers one completion request; resolves when the response is over (or abandoned). */
export async function serveCompletion(
  state: CompletionState,
  endpoint: Endpoint,
  body: unknown,
  res: ServerResponse,
  record: RecordedRequest,
  signal: AbortSignal,
  api: 'ollama' | 'openai' = 'ollama',
): Promise<void> {
  const openAi = api === 'openai';
  const fail = openAi ? sendOpenAiError : sendError;
  const request = openAi ? parseOpenAiCompletion(body) : parseCompletion(endpoint, body, state.templates);
  if ('error' in request) {
    fail(res, 400, request.error);
    return;
  }
  const entry = openAi
    ? openAiEntry(state.catalog, state.settings.openAi, request.model)
    : state.catalog.find(request.model);
  if (entry === undefined) {
    fail(
      res,
      404,
      openAi
        ? `The model \`${request.model}\` does not exist.`
        : `model "${request.model}" not found, try pulling it first`,
    );
    return;
  }
  if (!openAi && isLoadRequest(endpoint, body)) {
    await serveLoad(state.scheduler, endpoint, request, entry.name, res, signal);
    return;
  }
  // These servers fix the window at start-up instead of taking it per request.
  if (openAi) request.numCtx = openAiContextLength(entry, state.openAiContextLength);
  const rule = state.script.take({
    endpoint,
    model: entry.name,
    text: request.lastText,
    prompt: request.rendered,
  });
  if (rule?.latencyMs !== undefined && !(await sleep(rule.latencyMs, signal))) return;

  const vocabulary = state.settings.vocabularies;
  const tokenize = tokenizerOf(vocabulary?.[entry.name] ?? vocabulary?.[openAiModelId(entry)]);
  const answer = composeAnswer(request, rule, {
    tokenize,
    fillUnboundedStrings: state.settings.unboundedStrings === 'fill',
    ...(state.settings.quoteErrors === undefined ? {} : { quoteErrors: state.settings.quoteErrors }),
    ...(state.speech === undefined ? {} : { speech: state.speech }),
  });
  const pieces = splitPieces(answer, createRng(requestSeed(request), 'pieces'));
  if (rule?.fault !== undefined) {
    record.fault = rule.fault;
    state.stats.fault();
  }
  if (rule?.fault !== undefined && rule.fault !== 'empty') {
    await playFault(res, rule, {
      endpoint,
      model: request.model,
      stream: request.stream,
      pieces,
      api,
      record,
    });
    return;
  }

  const promptTokens = promptTokensFor(request, tokenize);
  if ('error' in promptTokens) {
    if (openAi) {
      sendOverflow(res, flavourOf(state.settings.openAi), promptTokens.tokens, request.numCtx ?? 0);
    } else fail(res, 400, promptTokens.error);
    return;
  }
  let lease: Awaited<ReturnType<Scheduler['acquire']>>;
  try {
    lease = await state.scheduler.acquire(entry.name, promptTokens, request.keepAliveMs, signal);
  } catch (error) {
    if (error instanceof QueueAbortedError) return;
    throw error;
  }
  record.startedAt = Date.now();
  record.slot = lease.slot;
  // What the model wrote, as its slot holds it: with the template's lead joined to the first word.
  const contentTokens = tokenize(`${request.answerLead ?? ''}${answer.content}`);
  const pace = clockPace(state.gpu, {
    model: entry.name,
    readyAt: lease.readyAt,
    prefill: promptTokens.length - lease.cached,
    output: answer.evalCount,
    msPerSecond: state.speed * 1000,
  });
  try {
    const times = simulateTimes(state.profile, {
      loaded: lease.loaded,
      prefilled: promptTokens.length - lease.cached,
      output: answer.evalCount,
    });
    state.stats.completion({
      model: entry.name,
      promptTokens: promptTokens.length,
      cachedPromptTokens: lease.cached,
      outputTokens: answer.evalCount,
      simulatedSeconds: times.totalSeconds,
    });
    if (openAi) {
      await deliverOpenAi(
        res,
        {
          // A name served because the server serves any name is answered under the model's own.
          model: state.catalog.find(request.model) ? request.model : openAiModelId(entry),
          stream: request.stream,
          usage: wantsUsage(body),
          answer,
          pieces,
          numbers: { promptTokens: promptTokens.length, cachedTokens: lease.cached, times },
          pace,
        },
        signal,
      );
      record.finishedAt = Date.now();
      return;
    }
    const context = endpoint === 'generate' ? [...promptTokens, ...contentTokens].map(tokenId) : undefined;
    await deliver(
      res,
      {
        endpoint,
        model: request.model,
        stream: request.stream,
        answer,
        pieces,
        numbers: {
          promptEvalCount: promptTokens.length,
          times,
          ...(context === undefined ? {} : { context }),
        },
        pace,
      },
      signal,
    );
    record.finishedAt = Date.now();
  } finally {
    pace.end();
    // The slot keeps the prompt and the reply, so the next turn of this conversation hits the cache.
    lease.release([...promptTokens, ...contentTokens]);
  }
}
