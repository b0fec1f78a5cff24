/** `agora doctor [scenario]`: is Ollama reachable, which version, which models are missing. */
import path from 'node:path';
import { loadScenario } from '../../config/load-scenario.js';
import { ExitCode } from '../../core/errors.js';
import { isProviderError } from '../../llm/errors.js';
import { OllamaProvider } from '../../llm/ollama-provider.js';
import type { CliIo } from '../io.js';
import { ollamaHostFor } from '../ollama-address.js';
import { parseCommand } from '../parse.js';
import { hasModel, requiredModels } from '../preflight.js';

export async function doctorCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand('doctor', argv, { host: { type: 'string' } });
  const scenario = positionals[0] ? await loadScenario(path.resolve(io.cwd, positionals[0])) : undefined;
  const host = ollamaHostFor(
    { flag: values.host, scenario: scenario?.ollama.host, env: io.env.OLLAMA_HOST },
    io,
  );
  const provider = new OllamaProvider({ host, requestTimeoutMs: 10_000 });
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
    if (hasModel(available, model)) io.stdout.write(`✓ ${model}\n`);
    else {
      missing += 1;
      io.stdout.write(`✗ ${model} is missing: run \`ollama pull ${model}\`\n`);
    }
  }
  return missing === 0 ? ExitCode.ok : ExitCode.modelMissing;
}
