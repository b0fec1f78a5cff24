/** `agora resume <run-id | run dir>`: continues an interrupted, stopped or failed run from its log. */
import path from 'node:path';
import { ExitCode } from '../../core/errors.js';
import { formatNamed } from '../../formats/index.js';
import { resolveOllamaHost } from '../../llm/ollama-host.js';
import { loadRun } from '../../manager/debate-manager.js';
import { acquireRunLock } from '../../store/run-lock.js';
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
  // The lock comes first: the log is read, and a torn last line cut off, only by its one writer.
  const release = acquireRunLock(runDir);
  try {
    const loaded = loadRun(runDir, formatNamed, { repair: true });
    const progress = loaded.format.progress(loaded.state);
    if (progress.status === 'completed') {
      io.stdout.write(`Run ${loaded.runId} already completed (${progress.stopReason}); nothing to resume.\n`);
      return ExitCode.ok;
    }
    const { scenario } = loaded;
    const host = resolveOllamaHost({
      flag: values.host,
      scenario: scenario.ollama.host,
      env: io.env.OLLAMA_HOST,
    });
    const timeoutSeconds = numberFlag('timeout', values.timeout, 1);
    return await runDebate(
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
      { loaded, lockHeld: true },
    );
  } finally {
    release();
  }
}
