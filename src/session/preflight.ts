/** Checks before a run: is Ollama there, and does it have every model the scenario needs? */
import { closestName } from '../config/closest-name.js';
import type { Scenario } from '../config/scenario.js';
import { AgoraError, ExitCode } from '../core/errors.js';
import { scenarioModels } from '../formats/scenario-models.js';
import { isProviderError, ProviderError } from '../llm/errors.js';
import type { ModelProvider } from '../llm/provider.js';
import { type ProviderRoute, RoutingProvider } from '../llm/routing-provider.js';

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

/**
 * Whether a server serves `model`: it lists it (by name or alias), or it answers any name (a
 * llama-server started with one model).
 */
export async function serves(server: ModelProvider, available: readonly string[], model: string) {
  return hasModel(available, model) || ((await server.servesAnyModel?.().catch(() => false)) ?? false);
}

export async function missingModels(provider: ModelProvider, scenario: Scenario): Promise<string[]> {
  const available = (await provider.listModels()).map((model) => model.name);
  const missing: string[] = [];
  for (const model of requiredModels(scenario)) {
    const route: ProviderRoute | undefined =
      provider instanceof RoutingProvider ? provider.routeOf(model) : undefined;
    const served = route ? await serves(route.provider, available, model) : hasModel(available, model);
    if (!served) missing.push(model);
  }
  return missing;
}

/**
 * Missing models named with the server's model each was probably meant to be (`mistrall` when the
 * server has `mistral`): "mistrall (did you mean mistral, which the server has?)".
 */
export async function namedWithClosest(
  provider: ModelProvider,
  missing: readonly string[],
): Promise<string[]> {
  const bare = (name: string) => name.replace(/:latest$/, '');
  const available = await provider
    .listModels()
    .then((models) => [...new Set(models.map((model) => bare(model.name)))])
    .catch(() => [] as string[]);
  return missing.map((model) => {
    const meant = closestName(bare(model), available);
    return meant ? `${model} (did you mean ${meant}, which the server has?)` : model;
  });
}

export async function preflight(provider: ModelProvider, scenario: Scenario): Promise<void> {
  await checkServer(provider);
  const all = await missingModels(provider, scenario);
  // Models that belong to another server get that server's advice, not `ollama pull`.
  const routed = provider instanceof RoutingProvider ? all.filter((model) => provider.routeOf(model)) : [];
  if (routed.length > 0 && provider instanceof RoutingProvider) {
    const first = routed[0] as string;
    const route = provider.routeOf(first);
    throw new ProviderError(
      'model-not-found',
      `the server of provider "${route?.name}" (${route?.provider.host}) does not list ${routed.join(', ')}, which ${scenario.file} sends there; load ${routed.length === 1 ? 'it' : 'them'} on that server under exactly that name (its /models lists the names it serves), or correct providers.${route?.name}.models`,
      { host: route?.provider.host ?? provider.host, model: first },
    );
  }
  const missing = all;
  if (missing.length > 0) {
    const host = provider instanceof RoutingProvider ? provider.defaultHost : provider.host;
    throw new ProviderError(
      'model-not-found',
      `the Ollama at ${host} lacks ${missing.length === 1 ? 'a model' : 'models'} this scenario uses: ${(await namedWithClosest(provider, missing)).join(', ')}. Fetch ${missing.length === 1 ? 'it' : 'them'} with ${missing.map((model) => `\`ollama pull ${model}\``).join(' and ')}, or change the models in ${scenario.file}`,
      { host, model: missing[0] },
    );
  }
}
