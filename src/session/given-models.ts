/**
 * Models a debate got from outside its scenario file (`--models x=llama2`, the viewer's models
 * field, a batch's line-up): when a server lacks one of them, the refusal names where it came from,
 * so the user fixes the flag instead of searching the file for a model it does not mention.
 */
import type { Scenario } from '../config/scenario.js';
import { ProviderError } from '../llm/errors.js';
import type { ModelProvider } from '../llm/provider.js';
import { RoutingProvider } from '../llm/routing-provider.js';
import { missingModels, namedWithClosest } from './preflight.js';

export interface GivenModels {
  /** Where they came from, as the user gave it: `--models x=llama2`. */
  by: string;
  models: readonly string[];
}

/** Refuses given models the servers lack (exit 5), naming where they were given and what to do. */
export async function checkGivenModels(
  provider: ModelProvider,
  scenario: Scenario,
  given: GivenModels | undefined,
): Promise<void> {
  if (!given || given.models.length === 0) return;
  const missing = (await missingModels(provider, scenario)).filter((model) => given.models.includes(model));
  const [first] = missing;
  if (first === undefined) return;
  const route = provider instanceof RoutingProvider ? provider.routeOf(first) : undefined;
  const host =
    route?.provider.host ?? (provider instanceof RoutingProvider ? provider.defaultHost : provider.host);
  const server = route ? `the server of provider "${route.name}" (${host})` : `the Ollama at ${host}`;
  const fetch = route
    ? `load ${missing.length === 1 ? 'it' : 'them'} on that server under exactly that name`
    : `fetch ${missing.length === 1 ? 'it' : 'them'} with ${missing.map((model) => `\`ollama pull ${model}\``).join(' and ')}`;
  throw new ProviderError(
    'model-not-found',
    `${server} lacks ${(await namedWithClosest(route?.provider ?? provider, missing)).join(', ')}, which ${given.by} asks for; ${fetch}, or change ${given.by}`,
    { host, model: first },
  );
}

/** The models a `role=model,...` line-up names. */
export function lineupModels(lineup: Record<string, string>): string[] {
  return [...new Set(Object.values(lineup))];
}
