/** `agora resume <run-id | run dir>`: continues an interrupted, stopped or failed run from its log. */
import path from 'node:path';
import { ExitCode } from '../../core/errors.js';
import { resolveOllamaHost } from '../../llm/ollama-host.js';
import { loadRun } from '../../manager/debate-manager.js';
import { findRunDir } from '../find-run.js';
import type { CliIo } from '../io.js';
import { numberFlag, parseCommand } from '../parse.js';
import { runDebate } from '../run-debate.js';

export async function resumeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand('resume', argv, {
    host: { type: 'string' },
    out: { type: 'string' },
    quiet: { type: 'boolean' },
    json: { type: 'boolean' },
    verbose: { type: 'boolean' },
    timeout: { type: 'string' },
  });
  const out = path.resolve(io.cwd, values.out ?? 'transcripts');
  const runDir = findRunDir(positionals[0], out, 'resume');
  const loaded = loadRun(runDir);
  const { state } = loaded;
  if (state.end?.status === 'completed') {
    io.stdout.write(`Run ${state.runId} already completed (${state.end.stopReason}); nothing to resume.\n`);
    return ExitCode.ok;
  }
  const scenario = state.scenario;
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
      out,
      quiet: values.quiet ?? false,
      json: values.json ?? false,
      verbose: values.verbose ?? false,
      ...(timeoutSeconds ? { requestTimeoutMs: timeoutSeconds * 1000 } : {}),
    },
    io,
    loaded,
  );
}
