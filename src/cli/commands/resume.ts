/** `agora resume <run-id | run dir>`: continues an interrupted, stopped or failed run from its log. */
import path from 'node:path';
import { ExitCode, RunError, UsageError } from '../../core/errors.js';
import { formatNamed } from '../../formats/index.js';
import { materialise } from '../../manager/claimed-run.js';
import { loadRun } from '../../manager/debate-manager.js';
import type { RunDatabase } from '../../store/postgres/run-database.js';
import { WorkQueue } from '../../store/postgres/work-queue.js';
import { acquireRunLock } from '../../store/run-lock.js';
import { runPlaces } from '../../store/run-places.js';
import { CLI_LEASE_SECONDS, cliOwner, DATABASE_FLAG, openDatabaseOption } from '../database-option.js';
import { findRunDir } from '../find-run.js';
import type { CliIo } from '../io.js';
import { ollamaHostFor } from '../ollama-address.js';
import { parseCommand, timeoutFlag } from '../parse.js';
import { type DebateFlags, runDebate } from '../run-debate.js';
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
    ...DATABASE_FLAG,
  });
  const out = path.resolve(io.cwd, values.out ?? 'transcripts');
  const database = await openDatabaseOption(values.database, io);
  if (database) {
    try {
      return await resumeShared(positionals[0], database, out, values, io);
    } finally {
      await database.close();
    }
  }
  const places = runPlaces(io.cwd, values.out);
  const runDir = findRunDir(positionals[0], places, 'resume');
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
    try {
      return await runDebate(
        scenario,
        host,
        {
          ...resumeFlags(out, values),
          places,
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

/**
 * `resume RUN --database URL`: takes the run's lease (when no live worker holds it), rebuilds its
 * folder under --out from the committed events, and drives it here, committing each step.
 */
async function resumeShared(
  runId: string | undefined,
  database: RunDatabase,
  out: string,
  values: { host?: string; quiet?: boolean; json?: boolean; verbose?: boolean; timeout?: string },
  io: CliIo,
): Promise<number> {
  if (!runId) throw new UsageError('name the run to resume: `agora resume <run id> --database URL`');
  const owner = cliOwner();
  const claim = await database.claim(runId, owner, CLI_LEASE_SECONDS, { resume: true });
  if (!claim) {
    const [row] = await database.runs([runId]);
    if (!row)
      throw new UsageError(
        `the shared database has no run ${runId}; \`agora runs --database URL\` lists its runs`,
      );
    if (row.status === 'running') {
      throw new RunError(
        `the run ${runId} is being driven by ${row.owner ?? 'a worker'}; stop it first with \`agora stop ${runId} --database URL\``,
        {
          exitCode: ExitCode.runLocked,
        },
      );
    }
    io.stdout.write(`Run ${runId} already ${row.status}; nothing to resume.\n`);
    return row.status === 'degraded' ? ExitCode.degraded : ExitCode.ok;
  }
  const lease = { runId, owner, epoch: claim.epoch };
  if (claim.lines.length === 0) {
    // Queued, never started: the workers start it from its queued scenario.
    await database.release(lease);
    const queue = await WorkQueue.start(database.url);
    try {
      await database.transaction(async (client) => {
        await database.requeue(runId, client);
        await queue.send(runId, client);
      });
    } finally {
      await queue.stop();
    }
    io.stdout.write(`Run ${runId} had not started; it is queued again for the workers.\n`);
    return ExitCode.ok;
  }
  const runDir = materialise(out, runId, claim.lines);
  const loaded = loadRun(runDir, formatNamed);
  const host = ollamaHostFor(
    { flag: values.host, scenario: loaded.scenario.ollama.host, env: io.env.OLLAMA_HOST },
    io,
  );
  try {
    return await runDebate(
      loaded.scenario,
      host,
      {
        ...resumeFlags(out, values),
        ...(claim.simulated ? { simulated: true } : {}),
        shared: { database, owner, leaseSeconds: CLI_LEASE_SECONDS, lease },
      },
      io,
      { loaded, lockHeld: false },
    );
  } catch (error) {
    // Checks that failed before the first step (Ollama unreachable) leave the run to others.
    await database.release(lease).catch(() => undefined);
    throw error;
  }
}

/** The flags a resumed run is driven with, from the command line. */
function resumeFlags(
  out: string,
  values: { quiet?: boolean; json?: boolean; verbose?: boolean; timeout?: string },
): DebateFlags {
  const requestTimeoutMs = timeoutFlag(values.timeout);
  return {
    out,
    quiet: values.quiet ?? false,
    json: values.json ?? false,
    verbose: values.verbose ?? false,
    ...(requestTimeoutMs ? { requestTimeoutMs } : {}),
  };
}
