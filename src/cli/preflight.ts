/** Checks before a run: is Ollama there, and does it have every model the scenario needs? */
import type { Scenario } from '../config/scenario.js';
import { AgoraError, ExitCode } from '../core/errors.js';
import { scenarioModels } from '../formats/scenario-models.js';
import { isProviderError, ProviderError } from '../llm/errors.js';
import type { ModelProvider } from '../llm/provider.js';

export function requiredModels(scenario: Scenario): string[] {
  return scenarioModels(scenario).required;
}

/** Model names match with or without the `:latest` tag, as Ollama resolves them. */
export function hasModel(available: readonly string[], wanted: string): boolean {
  const normal = (name: string) => (name.includes(':') ? name : `${name}:latest`);
  return available.some((name) => normal(name) === normal(wanted));
}

/** What to suggest when no Ollama answers: the terminal's demo, unless the caller has its own. */
const DEMO_HINT =
  "`npm run demo` runs the same debate on Agora's built-in simulator (simulated text, no model needed)";

export async function checkServer(provider: ModelProvider, demoHint = DEMO_HINT): Promise<string> {
  try {
    return await provider.version();
  } catch (error) {
    if (isProviderError(error) && error.kind === 'unreachable') {
      throw new AgoraError(`${error.message}. No Ollama on this machine? ${demoHint}.`, {
        exitCode: ExitCode.unreachable,
        cause: error,
      });
    }
    throw error;
  }
}

export async function missingModels(provider: ModelProvider, scenario: Scenario): Promise<string[]> {
  const available = (await provider.listModels()).map((model) => model.name);
  return requiredModels(scenario).filter((model) => !hasModel(available, model));
}

export async function preflight(provider: ModelProvider, scenario: Scenario): Promise<void> {
  await checkServer(provider);
  const missing = await missingModels(provider, scenario);
  if (missing.length > 0) {
    throw new ProviderError(
      'model-not-found',
      `the Ollama at ${provider.host} lacks ${missing.length === 1 ? 'a model' : 'models'} this scenario uses: ${missing.join(', ')}. Fetch ${missing.length === 1 ? 'it' : 'them'} with ${missing.map((model) => `\`ollama pull ${model}\``).join(' and ')}, or change the models in ${scenario.file}`,
      { host: provider.host, model: missing[0] },
    );
  }
}
