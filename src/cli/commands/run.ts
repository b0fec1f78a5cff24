/** `agora run <scenario.yaml>` (also `npm run debate -- <scenario.yaml>`): one knockout debate. */
import path from 'node:path';
import { loadScenario } from '../../config/load-scenario.js';
import { UsageError } from '../../core/errors.js';
import { resolveOllamaHost } from '../../llm/ollama-host.js';
import type { CliIo } from '../io.js';
import { integerFlag, numberFlag, parseCommand } from '../parse.js';
import { runDebate } from '../run-debate.js';
import { applyOverrides } from '../scenario-overrides.js';

export const debateOptions = {
  seed: { type: 'string' },
  rounds: { type: 'string' },
  topic: { type: 'string' },
  out: { type: 'string' },
  quiet: { type: 'boolean' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  timeout: { type: 'string' },
} as const;

export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand('run', argv, { ...debateOptions, host: { type: 'string' } });
  if (positionals.length !== 1) {
    throw new UsageError('run: name one scenario file, e.g. `npm run debate -- scenarios/abortion.yaml`');
  }
  const loaded = await loadScenario(path.resolve(io.cwd, positionals[0] as string));
  const scenario = applyOverrides(loaded, {
    seed: integerFlag('seed', values.seed),
    rounds: integerFlag('rounds', values.rounds, 1),
    topic: values.topic,
  });
  for (const warning of scenario.warnings) io.stderr.write(`warning: ${warning.path} ${warning.message}\n`);
  const host = resolveOllamaHost({
    flag: values.host,
    scenario: scenario.ollama.host,
    env: io.env.OLLAMA_HOST,
  });
  const timeoutSeconds = numberFlag('timeout', values.timeout, 1);
  return runDebate(
    scenario,
    host,
    {
      out: path.resolve(io.cwd, values.out ?? 'transcripts'),
      quiet: values.quiet ?? false,
      json: values.json ?? false,
      verbose: values.verbose ?? false,
      ...(timeoutSeconds ? { requestTimeoutMs: timeoutSeconds * 1000 } : {}),
    },
    io,
  );
}
