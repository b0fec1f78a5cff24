/**
 * Ollama hosts shared by many debates (a batch's, a worker's): each checked before the first debate
 * (with every scenario's models, when the scenarios are known), behind a limit of calls at once per
 * host; a scenario's own servers (`providers:`) are routed beside them.
 */
import path from 'node:path';
import type { Scenario } from '../config/scenario.js';
import { AgoraError } from '../core/errors.js';
import { LimitedProvider } from '../llm/limited-provider.js';
import { OllamaProvider } from '../llm/ollama-provider.js';
import type { ModelProvider } from '../llm/provider.js';
import { checkGivenModels, type GivenModels } from './given-models.js';
import { providerOverHosts } from './model-providers.js';
import { checkServer, preflight } from './preflight.js';

export interface HostPoolOptions {
  /** The Ollama hosts, already resolved. */
  hosts: string[];
  /** Model calls at once per host. */
  perHost: number;
  env: Record<string, string | undefined>;
  requestTimeoutMs?: number;
  /** The scenarios that will run, each with the file it came from: their models are checked first. */
  scenarios?: Array<{ scenario: Scenario; file: string; givenModels?: GivenModels }>;
}

export interface HostPool {
  /** The hosts behind their limits. */
  provider: LimitedProvider;
  /** The provider a debate of `scenario` talks to: the hosts, plus the scenario's own servers. */
  providerFor(scenario: Scenario): ModelProvider;
}

export async function openHostPool(options: HostPoolOptions): Promise<HostPool> {
  const { env, requestTimeoutMs } = options;
  const hosts = options.hosts.map(
    (host) => new OllamaProvider({ host, ...(requestTimeoutMs ? { requestTimeoutMs } : {}) }),
  );
  // Every host must answer and have every model before the first debate starts; a model a
  // scenario sends to its own server is checked on that server.
  for (const host of hosts) {
    await checkServer(host);
    for (const item of options.scenarios ?? []) await preflightNamed(host, item, env, requestTimeoutMs);
  }
  const provider = new LimitedProvider(hosts, options.perHost);
  return {
    provider,
    providerFor: (scenario) => providerOverHosts(scenario, provider, env, requestTimeoutMs),
  };
}

/** A missing model or a refused scenario names the scenario file it is about. */
async function preflightNamed(
  host: OllamaProvider,
  item: { scenario: Scenario; file: string; givenModels?: GivenModels },
  env: HostPoolOptions['env'],
  requestTimeoutMs: number | undefined,
): Promise<void> {
  try {
    const provider = providerOverHosts(item.scenario, host, env, requestTimeoutMs);
    await checkGivenModels(provider, item.scenario, item.givenModels);
    await preflight(provider, item.scenario);
  } catch (error) {
    if (!(error instanceof AgoraError)) throw error;
    throw new AgoraError(`${path.basename(item.file)}: ${error.message}`, {
      exitCode: error.exitCode,
      cause: error,
    });
  }
}
