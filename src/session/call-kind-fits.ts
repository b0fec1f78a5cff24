/**
 * Whether each call kind of a scenario can fit its model's window at the model's real rate of
 * characters per token, checked before a run (`doctor`) with the code the run fits its prompts
 * with, so that what the run would refuse is refused here in the same words. The rate is measured
 * on the server: its own tokenizer when it has one (llama-server's `/tokenize`), otherwise one
 * short call whose prompt tokens it counts.
 */
import type { Scenario } from '../config/scenario.js';
import { ContextWindowError } from '../context/context-window-error.js';
import { fitToWindow } from '../context/fit-window.js';
import { DEFAULT_CHARS_PER_TOKEN, estimateTokens } from '../core/token-estimate.js';
import { ContextOverflowError } from '../llm/errors.js';
import type { ModelProvider } from '../llm/provider.js';
import { type FirstCall, firstCalls } from './first-calls.js';
import { requiredModels } from './preflight.js';
import { fitWholeDebate, type WholeDebateFit } from './whole-debate-fit.js';

/** A model's measured characters per token, and how it was measured. */
export interface MeasuredRate {
  charsPerToken: number;
  how: 'tokenizer' | 'call';
  chars: number;
  tokens: number;
}

/** Characters of the sample a rate is measured on: enough to average out, short to prefill. */
const SAMPLE_CHARS = 4000;

/**
 * `model`'s characters per token on `sample`: the server's tokenizer, else the prompt tokens of one
 * call that writes one token. Undefined when the server counts nothing.
 */
export async function measureRate(
  provider: ModelProvider,
  model: string,
  sample: string,
  contextWindow: number,
  options: { tokenizerOnly?: boolean } = {},
): Promise<MeasuredRate | undefined> {
  const text = sample.slice(0, SAMPLE_CHARS);
  if (text === '') return undefined;
  const counted = await provider.countTokens?.(model, text).catch(() => undefined);
  if (counted !== undefined && counted > 0) {
    return { charsPerToken: text.length / counted, how: 'tokenizer', chars: text.length, tokens: counted };
  }
  if (options.tokenizerOnly) return undefined;
  let tokens: number;
  try {
    const answer = await provider.chat({
      model,
      messages: [{ role: 'user', content: text }],
      maxTokens: 1,
      contextWindow,
      temperature: 0,
      seed: 1,
    });
    tokens = answer.promptTokens;
  } catch (error) {
    // A sample longer than the window: the refusal says how many tokens it came to.
    if (!(error instanceof ContextOverflowError) || error.promptTokens === undefined) return undefined;
    tokens = error.promptTokens;
  }
  if (tokens <= 0) return undefined;
  return { charsPerToken: text.length / tokens, how: 'call', chars: text.length, tokens };
}

/** Each model's measured rate (undefined when the server counted nothing), and every fit checked with them. */
export interface ScenarioFits {
  rates: Array<{ model: string; rate: MeasuredRate | undefined }>;
  calls: CallKindFit[];
  /** The whole debate tried at its caps; undefined when a first call already cannot fit, or nothing was measured for `run`. */
  debate: WholeDebateFit | undefined;
  /** The first refusal, in the words the run stops with; undefined when everything fits. */
  error: ContextWindowError | undefined;
}

/**
 * The rule `run` applies before its first call and `doctor` reports: each model's rate measured on
 * the server (with `tokenizerOnly`, only by a tokenizer: no model call, and no trial of the whole
 * debate when nothing was measured), each call kind's first call fitted at that rate, then the
 * whole debate tried at its caps at those rates (whole-debate-fit.ts), all in `contextWindow`.
 */
export async function scenarioFits(
  provider: ModelProvider,
  scenario: Scenario,
  contextWindow: number,
  options: { tokenizerOnly?: boolean } = {},
): Promise<ScenarioFits> {
  const rates: ScenarioFits['rates'] = [];
  const measured = new Map<string, number>();
  for (const model of requiredModels(scenario)) {
    const rate = await measureRate(provider, model, rateSample(scenario, model), contextWindow, {
      tokenizerOnly: options.tokenizerOnly === true,
    }).catch(() => undefined);
    rates.push({ model, rate });
    if (rate) measured.set(model, rate.charsPerToken);
  }
  const calls = fitCallKinds(scenario, contextWindow, measured);
  const first = calls.find((fit) => fit.error)?.error;
  const tried = first === undefined && (!options.tokenizerOnly || measured.size > 0);
  const debate = tried
    ? await fitWholeDebate(
        {
          ...scenario,
          model_options: { ...scenario.model_options, context_window: contextWindow },
        } as Scenario,
        measured,
      )
    : undefined;
  return { rates, calls, debate, error: first ?? debate?.error };
}

/** One call kind against the window: its fixed part's estimate, or the run's own refusal. */
export interface CallKindFit {
  call: FirstCall;
  charsPerToken: number;
  /** Estimated tokens of the prompt's fixed part (the debate so far still empty). */
  promptTokens: number;
  /** The error the run would stop with, in its words; undefined when the call fits. */
  error?: ContextWindowError;
}

/**
 * Each call kind's first call fitted to `contextWindow` at its model's rate (the first guess of 4
 * for a model not measured), with the code a run fits every prompt with.
 */
export function fitCallKinds(
  scenario: Scenario,
  contextWindow: number,
  rates: ReadonlyMap<string, number>,
): CallKindFit[] {
  return firstCalls(scenario).map((call) => {
    const charsPerToken = rates.get(call.model) ?? DEFAULT_CHARS_PER_TOKEN;
    const promptTokens = estimateTokens(
      call.messages.reduce((sum, message) => sum + message.content.length, 0),
      charsPerToken,
    );
    try {
      fitToWindow(call.messages, {
        contextWindow,
        maxTokens: call.maxTokens,
        what: call.what,
        charsPerToken,
        ...(call.marginTokens === undefined ? {} : { marginTokens: call.marginTokens }),
      });
      return { call, charsPerToken, promptTokens };
    } catch (error) {
      if (!(error instanceof ContextWindowError)) throw error;
      return { call, charsPerToken, promptTokens, error };
    }
  });
}

/** The text a model's rate is best measured on: the longest first prompt it will be sent. */
export function rateSample(scenario: Scenario, model: string): string {
  const prompts = firstCalls(scenario)
    .filter((call) => call.model === model)
    .map((call) => call.messages.map((message) => message.content).join('\n'));
  return prompts.reduce((longest, text) => (text.length > longest.length ? text : longest), '');
}
