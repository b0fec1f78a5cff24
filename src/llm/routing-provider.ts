/**
 * Several model servers behind the one provider interface. Each chat goes to the server that owns
 * its model (a scenario's `providers.<name>.models`), every other model to the default server
 * (Ollama). Routing by model name means formats, retries and fallbacks need no change: a fallback
 * model is routed like any other.
 */
import type { ChatOptions, ChatRequest, ChatResult, ModelInfo, ModelProvider } from './provider.js';

/** A server and the model names it owns. */
export interface ProviderRoute {
  /** The scenario's name for this server, for messages. */
  name: string;
  provider: ModelProvider;
  models: readonly string[];
}

/** `llama3` and `llama3:latest` are one model, as Ollama resolves them. */
const sameModel = (a: string, b: string) =>
  a === b || (a.includes(':') ? a : `${a}:latest`) === (b.includes(':') ? b : `${b}:latest`);

export class RoutingProvider implements ModelProvider {
  readonly host: string;
  /** The default (Ollama) server's address. */
  readonly defaultHost: string;
  /** Whether any model goes to the default server. */
  readonly usesDefault: boolean;

  /**
   * `fallbackUsed` says whether any model goes to the default server; when none does, that server
   * is not asked anything, so a scenario entirely on llama-server runs without an Ollama.
   */
  constructor(
    private readonly fallback: ModelProvider,
    private readonly routes: readonly ProviderRoute[],
    private readonly fallbackUsed = true,
  ) {
    this.usesDefault = fallbackUsed;
    this.defaultHost = fallback.host;
    this.host = [
      ...(fallbackUsed ? [fallback.host] : []),
      ...routes.map((route) => route.provider.host),
    ].join(', ');
  }

  /** The route that owns `model`, or undefined when the default server serves it. */
  routeOf(model: string): ProviderRoute | undefined {
    return this.routes.find((route) => route.models.some((owned) => sameModel(owned, model)));
  }

  /** The server a chat for `model` goes to. */
  providerFor(model: string): ModelProvider {
    return this.routeOf(model)?.provider ?? this.fallback;
  }

  chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResult> {
    return this.providerFor(request.model).chat(request, options);
  }

  /**
   * What each server has of the models it owns: a model listed by the wrong server does not count,
   * so a preflight check finds it missing where the calls will go.
   */
  async listModels(options?: { signal?: AbortSignal }): Promise<ModelInfo[]> {
    const lists = await Promise.all([
      this.fallbackUsed
        ? this.fallback
            .listModels(options)
            .then((models) => models.filter((model) => this.routeOf(model.name) === undefined))
        : Promise.resolve([]),
      ...this.routes.map((route) =>
        route.provider
          .listModels(options)
          .then((models) => models.filter((model) => this.routeOf(model.name) === route)),
      ),
    ]);
    return lists.flat();
  }

  /** Asks every server in use (so an unreachable one is found before the run starts). */
  async version(options?: { signal?: AbortSignal }): Promise<string> {
    const versions = await Promise.all([
      ...(this.fallbackUsed ? [this.fallback.version(options)] : []),
      ...this.routes.map((route) => route.provider.version(options)),
    ]);
    return versions.join(', ');
  }

  async contextWindow(model: string, options?: { signal?: AbortSignal }): Promise<number | undefined> {
    return this.providerFor(model).contextWindow?.(model, options);
  }

  async countTokens(
    model: string,
    text: string,
    options?: { signal?: AbortSignal },
  ): Promise<number | undefined> {
    return this.providerFor(model).countTokens?.(model, text, options);
  }

  async slots(model: string, options?: { signal?: AbortSignal }): Promise<number | undefined> {
    return this.providerFor(model).slots?.(model, options);
  }

  async load(model: string, options?: { contextWindow?: number; signal?: AbortSignal }): Promise<void> {
    await this.providerFor(model).load?.(model, options);
  }
}
