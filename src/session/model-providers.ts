/**
 * Builds the provider a run talks to: the Ollama host as before, plus the scenario's `providers`,
 * each owning its listed models. Environment variables are read here, at the edge: a provider's
 * base URL can be overridden with `AGORA_PROVIDER_<NAME>_URL`, and its API key comes from the
 * variable its `api_key_env` names, so the key itself is never in the scenario or the run's log.
 */
import type { Logger } from 'pino';
import type { Scenario } from '../config/scenario.js';
import { timeoutMilliseconds } from '../config/timeout-seconds.js';
import { AgoraError, ExitCode } from '../core/errors.js';
import { normalizeOllamaHost } from '../llm/ollama-host.js';
import { OllamaProvider } from '../llm/ollama-provider.js';
import { OpenAiProvider } from '../llm/openai-provider.js';
import type { ModelProvider } from '../llm/provider.js';
import { type ProviderRoute, RoutingProvider } from '../llm/routing-provider.js';
import type { CassetteRecorder } from '../mock-ollama/index.js';
import { requiredModels } from './preflight.js';

/** The environment variable that overrides provider `name`'s base_url. */
export function baseUrlVariable(name: string): string {
  return `AGORA_PROVIDER_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_URL`;
}

export interface ProviderSettings {
  /** The Ollama host, already resolved from --host, the scenario and OLLAMA_HOST. */
  host: string;
  env: Record<string, string | undefined>;
  requestTimeoutMs: number;
  logger?: Logger;
  /** Records every chat call into a cassette (`--record`); told of API keys, to keep them out. */
  recorder?: CassetteRecorder;
  /**
   * The default server already built (a batch's or a worker's Ollama hosts behind their limits);
   * `host` then only names it. Each call to another provider's model still goes to that provider.
   */
  ollama?: ModelProvider;
  /** Told what the user should know of the servers while the run goes on (a full shared cache). */
  warning?: (text: string) => void;
}

export function createModelProvider(scenario: Scenario, settings: ProviderSettings): ModelProvider {
  const { host, env, requestTimeoutMs, logger, recorder } = settings;
  const shared = { requestTimeoutMs, ...(logger ? { logger } : {}), ...(recorder ? { tap: recorder } : {}) };
  const ollama = settings.ollama ?? new OllamaProvider({ host, ...shared });
  const entries = Object.entries(scenario.providers);
  if (entries.length === 0) return ollama;
  const routes: ProviderRoute[] = entries.map(([name, entry]) => {
    const override = env[baseUrlVariable(name)]?.trim();
    const baseUrl = override || entry.base_url.trim();
    const where = override ? baseUrlVariable(name) : `providers.${name}.base_url in ${scenario.file}`;
    if (!URL.canParse(baseUrl) || !/^https?:\/\//i.test(baseUrl)) {
      throw new AgoraError(
        `${where} is "${baseUrl}", which is not an http:// or https:// URL; write it like http://127.0.0.1:8080/v1`,
        { exitCode: ExitCode.config },
      );
    }
    let apiKey: string | undefined;
    if (entry.api_key_env) {
      apiKey = env[entry.api_key_env];
      if (!apiKey) {
        throw new AgoraError(
          `providers.${name}.api_key_env in ${scenario.file} names the environment variable ${entry.api_key_env}, which is not set; export it with the server's API key, or remove api_key_env for a server that needs none`,
          { exitCode: ExitCode.config },
        );
      }
    }
    if (apiKey) recorder?.hide(apiKey);
    const provider =
      entry.type === 'ollama'
        ? new OllamaProvider({ host: normalizeOllamaHost(baseUrl), ...shared })
        : new OpenAiProvider({
            baseUrl,
            ...shared,
            ...(apiKey ? { apiKey } : {}),
            ...(settings.warning ? { onFewerCalls: settings.warning } : {}),
          });
    return { name, provider, models: entry.models };
  });
  const router = new RoutingProvider(ollama, routes);
  const fallbackUsed = requiredModels(scenario).some((model) => router.routeOf(model) === undefined);
  return fallbackUsed ? router : new RoutingProvider(ollama, routes, false);
}

/**
 * The run header's lines naming where the models go: the Ollama host when any model goes there,
 * and each provider the scenario's models use (addresses only: keys stay in the environment).
 */
export function serverLines(
  provider: ModelProvider,
  scenario: Scenario,
  env: Record<string, string | undefined>,
): string {
  const models = requiredModels(scenario);
  const router = provider instanceof RoutingProvider ? provider : undefined;
  const ollama = !router || router.usesDefault ? `Ollama: ${router?.defaultHost ?? provider.host}\n` : '';
  const used = Object.entries(scenario.providers).filter(([name]) =>
    models.some((model) => router?.routeOf(model)?.name === name),
  );
  return `${ollama}${used
    .map(([name, entry]) => {
      const address = env[baseUrlVariable(name)]?.trim() || entry.base_url;
      const own = models.filter((model) => router?.routeOf(model)?.name === name);
      return `Provider ${name} (${entry.type}): ${address} for ${own.join(', ')}\n`;
    })
    .join('')}`;
}

/**
 * The provider a batch's or a worker's debate of `scenario` talks to: `hosts` (the Ollama hosts
 * behind their limits) for every model but those the scenario sends to its own servers
 * (`providers:`), whose addresses and keys come from this process's environment.
 */
export function providerOverHosts(
  scenario: Scenario,
  hosts: ModelProvider,
  env: Record<string, string | undefined>,
  requestTimeoutMs?: number,
): ModelProvider {
  return createModelProvider(scenario, {
    host: hosts.host,
    env,
    requestTimeoutMs: requestTimeoutMs ?? timeoutMilliseconds(scenario.reliability.request_timeout_seconds),
    ollama: hosts,
  });
}
