/** `agora resume <run-id | run dir>`: continues an interrupted, stopped or failed run from its log. */
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import { isSimulated } from '../../core/events.js';
import type { RunProgress } from '../../core/run-progress.js';
import { stopReasonText } from '../../core/stop-reason-text.js';
import { printable } from '../../render/terminal-safe.js';
import { claimRunFolder } from '../../session/run-folder-claim.js';
import { claimSharedRun } from '../../session/shared-runs.js';
import type { RunDatabase } from '../../store/postgres/run-database.js';
import { runPlaces } from '../../store/run-places.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { HOST, OUT, SIMULATED, SPEAK_FROM, TIMEOUT } from '../common-options.js';
import { openDatabaseOption } from '../database-option.js';
import { debateOnTerminal } from '../debate-on-terminal.js';
import { findRunDir } from '../find-run.js';
import type { CliIo } from '../io.js';
import { ollamaHostFor } from '../ollama-address.js';
import { databaseRunId } from '../run-reference.js';
import { startDemoServer } from './demo.js';
import { debateServers, recording, terminalFlags } from './run.js';

const RESUME_OPTIONS = {
  host: HOST,
  out: OUT,
  quiet: { help: 'no live transcript; only the final tables' },
  json: { help: 'print a machine-readable summary on stdout and nothing else' },
  verbose: { help: 'debug logs on stderr' },
  timeout: TIMEOUT,
  demo: { help: 'resume on the built-in simulator (a demo run does so without it, unless --host is given)' },
  database: {
    value: 'URL',
    help: 'resume a run of the shared Postgres store here (default: AGORA_DATABASE_URL)',
  },
  record: {
    value: 'DIR',
    help: "record the resumed part's model calls into a cassette folder (new or empty)",
  },
  simulated: SIMULATED,
  'speak-from': SPEAK_FROM,
} as const satisfies OptionSpecs;

export const resumeCommand = defineCommand({
  name: 'resume',
  usage: '<run> [options]',
  listing: {
    term: 'resume <run>',
    text: [
      'continue an interrupted, stopped or failed run from its event log',
      '(--host, --out, --quiet, --json, --verbose, --timeout as for run;',
      'a demo run resumes on the built-in simulator, as with --demo)',
    ],
  },
  description: 'Continues an interrupted, stopped or failed run from its event log.',
  options: RESUME_OPTIONS,
  run: resumeRun,
});

async function resumeRun(
  { values, positionals }: CommandInput<typeof RESUME_OPTIONS>,
  io: CliIo,
): Promise<number> {
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
  const claim = claimRunFolder(findRunDir(positionals[0], places, 'resume'));
  if (claim.kind === 'ended') {
    if (claim.repair !== null) io.stderr.write(`warning: ${printable(claim.repair)}\n`);
    return alreadyEnded(claim.loaded.runId, claim.progress, io);
  }
  try {
    const { scenario } = claim.resume.loaded;
    // A run begun with `demo` goes on against the simulator, its text simulated to the end, unless
    // --host names a server to finish it on; it says so either way, never silently.
    const demoRun = isSimulated(claim.resume.loaded.events);
    const onSimulator = values.demo === true || (demoRun && values.host === undefined);
    const simulator = onSimulator ? await startDemoServer(scenario) : undefined;
    const host =
      simulator?.url ??
      ollamaHostFor({ flag: values.host, scenario: scenario.ollama.host, env: io.env.OLLAMA_HOST }, io);
    if (simulator && !values.json)
      io.stdout.write(
        `Demo: ${values.demo ? 'resuming' : `run ${claim.resume.loaded.runId} began on the built-in simulator, so it is resumed`} on Agora's built-in Ollama simulator at ${simulator.url}.\n`,
      );
    try {
      return await debateOnTerminal(
        {
          scenario,
          resume: claim.resume,
          servers: debateServers(host, values, io),
          store: { out, places },
          ...(simulator || values.simulated ? { simulated: true } : {}),
          ...recording(values, io),
        },
        terminalFlags(values, io),
        io,
      );
    } finally {
      await simulator?.close();
    }
  } finally {
    claim.release();
  }
}

/** A run that has ended: nothing to resume, and the exit code says how it ended. */
function alreadyEnded(runId: string, progress: RunProgress, io: CliIo): number {
  io.stdout.write(
    `Run ${runId} already ${progress.status === 'degraded' ? `ended degraded (${progress.failedSteps} failed steps)` : 'completed'} (${stopReasonText(progress.stopReason)}); nothing to resume.\n`,
  );
  return progress.status === 'degraded' ? ExitCode.degraded : ExitCode.ok;
}

/**
 * `resume RUN --database URL`: takes the run's lease (when no live worker holds it), rebuilds its
 * folder under --out from the committed events, and drives it here, committing each step.
 */
async function resumeShared(
  reference: string | undefined,
  database: RunDatabase,
  out: string,
  values: { host?: string; quiet?: boolean; json?: boolean; verbose?: boolean; timeout?: string },
  io: CliIo,
): Promise<number> {
  if (!reference) throw new UsageError('name the run to resume: `agora resume <run id> --database URL`');
  const runId = await databaseRunId(reference, database, 'the shared database');
  const claim = await claimSharedRun(database, runId, out);
  if (claim.kind === 'queued-again') {
    io.stdout.write(`Run ${runId} had not started; it is queued again for the workers.\n`);
    return ExitCode.ok;
  }
  if (claim.kind === 'ended') {
    io.stdout.write(`Run ${runId} already ${claim.status}; nothing to resume.\n`);
    return claim.status === 'degraded' ? ExitCode.degraded : ExitCode.ok;
  }
  const { loaded, shared } = claim;
  const host = ollamaHostFor(
    { flag: values.host, scenario: loaded.scenario.ollama.host, env: io.env.OLLAMA_HOST },
    io,
  );
  try {
    return await debateOnTerminal(
      {
        scenario: loaded.scenario,
        resume: { loaded, lockHeld: false },
        servers: debateServers(host, values, io),
        store: { out, shared },
        ...(claim.simulated ? { simulated: true } : {}),
      },
      terminalFlags(values, io),
      io,
    );
  } catch (error) {
    // Checks that failed before the first step (Ollama unreachable) leave the run to others.
    await database.release(shared.lease).catch(() => undefined);
    throw error;
  }
}
