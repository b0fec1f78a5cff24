/**
 * `agora doctor [scenario]`: is Ollama reachable, which version, which models are missing; and for
 * each of the scenario's other servers, whether it answers, what it serves and its context window.
 * With every model in place, the scenario is fitted to the servers' windows exactly as `run` fits
 * it, so what `run` would refuse, doctor refuses too.
 */

import path from 'node:path';
import { closestName } from '../../config/closest-name.js';
import { loadScenario } from '../../config/load-scenario.js';
import type { Scenario } from '../../config/scenario.js';
import { settleSeed } from '../../config/scenario-overrides.js';
import { AgoraError, ExitCode } from '../../core/errors.js';
import { isProviderError } from '../../llm/errors.js';
import { OllamaProvider } from '../../llm/ollama-provider.js';
import type { ModelProvider } from '../../llm/provider.js';
import { RoutingProvider } from '../../llm/routing-provider.js';
import { scenarioFits } from '../../session/call-kind-fits.js';
import { fitContextWindow } from '../../session/context-window-fit.js';
import { createModelProvider } from '../../session/model-providers.js';
import { hasModel, requiredModels, serves } from '../../session/preflight.js';
import { prepareScenario } from '../../session/prepare-scenario.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { HOST } from '../common-options.js';
import type { CliIo } from '../io.js';
import { ollamaHostFor } from '../ollama-address.js';

const DOCTOR_OPTIONS = { host: HOST } as const satisfies OptionSpecs;

export const doctorCommand = defineCommand({
  name: 'doctor',
  usage: '[scenario.yaml] [options]',
  listing: {
    term: 'doctor [scenario.yaml]',
    text: ["is Ollama reachable, and does it have the scenario's models?"],
  },
  description: "Is Ollama reachable, and does it have the scenario's models?",
  options: DOCTOR_OPTIONS,
  run: doctor,
});

async function doctor(
  { values, positionals }: CommandInput<typeof DOCTOR_OPTIONS>,
  io: CliIo,
): Promise<number> {
  const scenario = positionals[0] ? await loadScenario(path.resolve(io.cwd, positionals[0])) : undefined;
  const host = ollamaHostFor(
    { flag: values.host, scenario: scenario?.ollama.host, env: io.env.OLLAMA_HOST },
    io,
  );
  const provider = new OllamaProvider({ host, requestTimeoutMs: 10_000 });
  const routed = scenario
    ? createModelProvider(scenario, { host, env: io.env, requestTimeoutMs: 10_000 })
    : undefined;
  const router = routed instanceof RoutingProvider ? routed : undefined;
  const otherServers = router
    ? await checkOtherServers(router, scenario ? requiredModels(scenario) : [], io)
    : 0;
  if (otherServers === ExitCode.unreachable) return otherServers;
  // A scenario entirely on other servers needs no Ollama.
  if (scenario && router && requiredModels(scenario).every((model) => router.routeOf(model))) {
    return otherServers === ExitCode.ok && routed ? checkWindow(scenario, routed, io) : otherServers;
  }
  io.stdout.write(`Ollama host: ${host}\n`);
  let version: string;
  try {
    version = await provider.version();
  } catch (error) {
    if (!isProviderError(error)) throw error;
    io.stdout.write(
      `✗ not reachable: ${error.message}\n  No Ollama here? \`npm run demo\` uses the built-in simulator.\n`,
    );
    return ExitCode.unreachable;
  }
  io.stdout.write(`✓ reachable, Ollama version ${version}\n`);
  const available = (await provider.listModels()).map((model) => model.name);
  io.stdout.write(`  models on the server: ${available.length === 0 ? '(none)' : available.join(', ')}\n`);
  if (!scenario) return ExitCode.ok;
  let missing = 0;
  for (const model of requiredModels(scenario)) {
    if (router?.routeOf(model)) continue;
    if (hasModel(available, model)) io.stdout.write(`✓ ${model}\n`);
    else {
      missing += 1;
      const meant = closestName(
        model.replace(/:latest$/, ''),
        available.map((name) => name.replace(/:latest$/, '')),
      );
      io.stdout.write(
        meant
          ? `✗ ${model} is missing: did you mean ${meant}, which the server has? Correct the scenario, or run \`ollama pull ${model}\`\n`
          : `✗ ${model} is missing: run \`ollama pull ${model}\`\n`,
      );
    }
  }
  if (missing > 0) return ExitCode.modelMissing;
  return otherServers === ExitCode.ok && routed ? checkWindow(scenario, routed, io) : otherServers;
}

/**
 * The scenario against the servers' context windows, with the check `run` makes before it starts;
 * then each model's characters per token, measured on its server, each call kind's fixed part
 * fitted to the window at that rate, and the whole debate tried with every answer at its cap, by
 * the code the run fits its prompts with (session/whole-debate-fit.ts).
 */
async function checkWindow(scenario: Scenario, provider: ModelProvider, io: CliIo): Promise<number> {
  let fitted: Scenario;
  try {
    // As a new run settles it: a formal debate's models picked from the server, by its seed.
    const fit = await fitContextWindow(await prepareScenario(settleSeed(scenario), provider), provider);
    if (fit.warning) io.stdout.write(`! ${fit.warning}\n`);
    fitted = fit.scenario;
  } catch (error) {
    if (!(error instanceof AgoraError) || error.exitCode !== ExitCode.config) throw error;
    io.stdout.write(`✗ ${error.message}\n`);
    return ExitCode.config;
  }
  const window = fitted.model_options.context_window;
  const fits = await scenarioFits(provider, fitted, window);
  for (const { model, rate } of fits.rates) {
    if (rate === undefined) {
      io.stdout.write(
        `! ${model}: the server counted no tokens; its rate is taken as 4 characters a token\n`,
      );
      continue;
    }
    const how = rate.how === 'tokenizer' ? "the server's tokenizer" : 'one short call';
    io.stdout.write(
      `  ${model}: ${rate.charsPerToken.toFixed(2)} characters per token (${rate.chars} characters, ${rate.tokens} tokens, by ${how})\n`,
    );
  }
  let code: number = ExitCode.ok;
  for (const fit of fits.calls) {
    if (fit.error) {
      io.stdout.write(`✗ ${fit.error.message}\n`);
      code = ExitCode.config;
      continue;
    }
    io.stdout.write(
      `✓ ${fit.call.what}: about ${fit.promptTokens} tokens before the debate so far, ${fit.call.maxTokens} for the answer, in a ${window}-token window\n`,
    );
  }
  const debate = fits.debate;
  if (debate?.error) {
    io.stdout.write(`✗ ${debate.error.message}\n`);
    code = ExitCode.config;
  } else if (debate) {
    const fullest = debate.fullest
      ? `; the fullest call, on ${debate.fullest.model}, about ${debate.fullest.promptTokens} tokens of prompt and ${debate.fullest.maxTokens} for the answer in a ${window}-token window`
      : '';
    const shortened =
      debate.shortened > 0
        ? `; ${debate.shortened} with the debate so far shortened to fit, as run shortens it`
        : '';
    io.stdout.write(
      `✓ the whole debate with every answer at its cap: ${debate.calls} calls fit${fullest}${shortened}\n`,
    );
    if (debate.incomplete) {
      io.stdout.write(
        `! the trial stopped before the end of the debate, so later calls went untried: ${debate.incomplete}\n`,
      );
    }
  }
  return code;
}

/** Checks each OpenAI-compatible (or second Ollama) server; returns an exit code, 0 when all is well. */
async function checkOtherServers(router: RoutingProvider, required: string[], io: CliIo): Promise<number> {
  const names = [...new Set(required.map((model) => router.routeOf(model)?.name).filter(Boolean))];
  let code: number = ExitCode.ok;
  for (const name of names) {
    const route = required.map((model) => router.routeOf(model)).find((found) => found?.name === name);
    if (!route) continue;
    io.stdout.write(`Provider ${name}: ${route.provider.host}\n`);
    let available: string[];
    try {
      const version = await route.provider.version();
      available = (await route.provider.listModels()).map((model) => model.name);
      io.stdout.write(`✓ reachable (${version})\n`);
    } catch (error) {
      if (!isProviderError(error)) throw error;
      io.stdout.write(`✗ not reachable: ${error.message}\n`);
      return ExitCode.unreachable;
    }
    io.stdout.write(`  models on the server: ${available.length === 0 ? '(none)' : available.join(', ')}\n`);
    for (const model of required.filter((wanted) => router.routeOf(wanted) === route)) {
      if (!(await serves(route.provider, available, model))) {
        io.stdout.write(
          `✗ ${model} is not served there: load it under that name, or fix providers.${name}.models\n`,
        );
        code = ExitCode.modelMissing;
        continue;
      }
      const window = await route.provider.contextWindow?.(model).catch(() => undefined);
      io.stdout.write(`✓ ${model}${window ? `, context window ${window} tokens` : ''}\n`);
    }
  }
  return code;
}
