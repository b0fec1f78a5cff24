/**
 * `agora demo [scenario]` (`npm run demo`): the same debate as `run`, against Agora's built-in
 * Ollama simulator started on a free local port. Says clearly that the text is simulated.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScenario } from '../../config/load-scenario.js';
import { startMockOllama } from '../../mock-ollama/index.js';
import type { CliIo } from '../io.js';
import { integerFlag, numberFlag, parseCommand } from '../parse.js';
import { runDebate } from '../run-debate.js';
import { applyOverrides } from '../scenario-overrides.js';
import { debateOptions } from './run.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export async function demoCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand('demo', argv, {
    ...debateOptions,
    profile: { type: 'string' },
    speed: { type: 'string' },
  });
  const file = positionals[0]
    ? path.resolve(io.cwd, positionals[0])
    : path.join(projectRoot, 'scenarios', 'abortion.yaml');
  const loaded = await loadScenario(file);
  const scenario = applyOverrides(loaded, {
    seed: integerFlag('seed', values.seed),
    rounds: integerFlag('rounds', values.rounds, 1),
    topic: values.topic,
  });
  const models = [...new Set(scenario.agents.map((agent) => agent.model))];
  const profile = (values.profile ?? 'gpu') as 'instant' | 'gpu' | 'gpu-small' | 'cpu';
  const server = await startMockOllama({
    models,
    profile,
    speed: numberFlag('speed', values.speed, 0) ?? 0.05,
  });
  try {
    if (!values.json) {
      io.stdout.write(
        `Demo: Agora's built-in Ollama simulator is answering at ${server.url} (profile ${profile}). The statements are generated text, not a language model's.\n`,
      );
    }
    return await runDebate(
      scenario,
      server.url,
      {
        out: path.resolve(io.cwd, values.out ?? 'transcripts'),
        quiet: values.quiet ?? false,
        json: values.json ?? false,
        verbose: values.verbose ?? false,
      },
      io,
    );
  } finally {
    await server.close();
  }
}
