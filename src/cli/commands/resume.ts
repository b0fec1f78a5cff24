/** `agora resume <run-id | run dir>`: continues an interrupted, stopped or failed run from its log. */
import path from 'node:path';
import { ExitCode } from '../../core/errors.js';
import { formatNamed } from '../../formats/index.js';
import { loadRun } from '../../manager/debate-manager.js';
import { acquireRunLock } from '../../store/run-lock.js';
import { findRunDir } from '../find-run.js';
import type { CliIo } from '../io.js';
import { ollamaHostFor } from '../ollama-address.js';
import { parseCommand, timeoutFlag } from '../parse.js';
import { runDebate } from '../run-debate.js';
import { startDemoServer } from './demo.js';

export async function resumeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand('resume', argv, {
    host: { type: 'string' },
    out: { type: 'string' },
    quiet: { type: 'boolean' },
    json: { type: 'boolean' },
    verbose: { type: 'boolean' },
    timeout: { type: 'string' },
    demo: { type: 'boolean' },
    record: { type: 'string' },
    // Set by `serve --demo` on the workers it starts: the host it passes is its simulator.
    simulated: { type: 'boolean' },
  });
  const out = path.resolve(io.cwd, values.out ?? 'transcripts');
  const runDir = findRunDir(positionals[0], out, 'resume');
  // The lock comes first: the log is read, and a torn last line cut off, only by its one writer.
  const release = acquireRunLock(runDir);
  try {
    const loaded = loadRun(runDir, formatNamed, { repair: true });
    const progress = loaded.format.progress(loaded.state);
    if (progress.status === 'completed' || progress.status === 'degraded') {
      io.stdout.write(
        `Run ${loaded.runId} already ${progress.status === 'degraded' ? `ended degraded (${progress.failedSteps} failed steps)` : 'completed'} (${progress.stopReason}); nothing to resume.\n`,
      );
      return progress.status === 'degraded' ? ExitCode.degraded : ExitCode.ok;
    }
    const { scenario } = loaded;
    // A run begun with `demo` goes on against the simulator only when asked to: never silently.
    const simulator = values.demo ? await startDemoServer(scenario) : undefined;
    const host =
      simulator?.url ??
      ollamaHostFor({ flag: values.host, scenario: scenario.ollama.host, env: io.env.OLLAMA_HOST }, io);
    if (simulator && !values.json)
      io.stdout.write(`Demo: resuming on Agora's built-in Ollama simulator at ${simulator.url}.\n`);
    const requestTimeoutMs = timeoutFlag(values.timeout);
    try {
      return await runDebate(
        scenario,
        host,
        {
          out,
          quiet: values.quiet ?? false,
          json: values.json ?? false,
          verbose: values.verbose ?? false,
          ...(requestTimeoutMs ? { requestTimeoutMs } : {}),
          ...(simulator || values.simulated ? { simulated: true } : {}),
          ...(values.record ? { record: path.resolve(io.cwd, values.record) } : {}),
        },
        io,
        { loaded, lockHeld: true },
      );
    } finally {
      await simulator?.close();
    }
  } finally {
    release();
  }
}
