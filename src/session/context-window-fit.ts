/**
 * OpenAI-compatible servers fix the context window when they start (llama-server `-c`, vLLM
 * `--max-model-len`) and refuse longer prompts, while the engine budgets every prompt by the
 * scenario's `model_options.context_window`. So before a new run, the window is read from each
 * server that says it (llama-server: the window of one slot, which is what a request gets), and
 * the scenario's window is lowered to the smallest, with a warning. One
 * window for the whole scenario keeps it simple (and keeps Ollama's `num_ctx` constant per model).
 */
import { checkBackgroundFits } from '../config/background-fit.js';
import type { Scenario } from '../config/scenario.js';
import { AgoraError, ExitCode } from '../core/errors.js';
import type { ModelProvider } from '../llm/provider.js';
import { requiredModels } from './preflight.js';

export interface WindowFit {
  scenario: Scenario;
  /** Set when the window was lowered, for the user. */
  warning?: string;
}

export async function fitContextWindow(scenario: Scenario, provider: ModelProvider): Promise<WindowFit> {
  if (!provider.contextWindow) return { scenario };
  const configured = scenario.model_options.context_window;
  let smallest: { model: string; window: number } | undefined;
  for (const model of requiredModels(scenario)) {
    const window = await provider.contextWindow(model);
    if (window !== undefined && window < (smallest?.window ?? configured)) smallest = { model, window };
  }
  if (smallest === undefined) return { scenario };
  const lowered = {
    ...scenario,
    model_options: { ...scenario.model_options, context_window: smallest.window },
  } as Scenario;
  const reason = `the server serving ${smallest.model} has a context window of ${smallest.window} tokens, smaller than model_options.context_window ${configured} in ${scenario.file}`;
  const maxTokens = (scenario.model_options as { max_tokens?: number }).max_tokens;
  if (maxTokens !== undefined && maxTokens >= smallest.window) {
    throw new AgoraError(
      `${reason}, and model_options.max_tokens (${maxTokens}) would not fit in it; lower max_tokens, or start the server with a larger window`,
      { exitCode: ExitCode.config },
    );
  }
  const background = checkBackgroundFits(lowered, scenario.contextFiles);
  if (background) {
    throw new AgoraError(`${reason}: ${background.message}`, { exitCode: ExitCode.config });
  }
  return {
    scenario: lowered,
    warning: `${reason}; prompts are kept within ${smallest.window} tokens for this run`,
  };
}
