/**
 * Loading a run's models before its first step, so the first round does not wait for them and
 * their load time is told apart from it. The models go in reverse order of the scenario's listing
 * (participants as listed, the first speaker usually first), so a server that holds one model at a
 * time keeps the first listed. A load that fails is no reason to stop: the first call loads the
 * model anyway, and reports any real problem itself.
 */
import type { Logger } from 'pino';
import type { Scenario } from '../config/scenario.js';
import { scenarioModels } from '../formats/scenario-models.js';
import type { ModelProvider } from '../llm/provider.js';

/** How long each model took to load, in the order they were loaded. */
export type ModelLoads = Array<{ model: string; ms: number; failed?: string }>;

/** Loads every model `scenario` calls (not its fallbacks) with the window its calls will ask for. */
export async function loadModelsAhead(
  provider: ModelProvider,
  scenario: Scenario,
  options: { logger: Logger; signal?: AbortSignal; stopRequested?: () => boolean; now?: () => number },
): Promise<ModelLoads> {
  const load = provider.load?.bind(provider);
  if (load === undefined) return [];
  const now = options.now ?? Date.now;
  const loads: ModelLoads = [];
  for (const model of [...scenarioModels(scenario).required].reverse()) {
    // A stop asked for now has no step to wait for: the loads still to come are not needed.
    if (options.signal?.aborted || options.stopRequested?.()) break;
    const started = now();
    try {
      await load(model, {
        contextWindow: scenario.model_options.context_window,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      loads.push({ model, ms: Math.round(now() - started) });
    } catch (error) {
      loads.push({ model, ms: Math.round(now() - started), failed: (error as Error).message });
    }
  }
  options.logger.info({ loads }, 'models loaded before the first step');
  return loads;
}
