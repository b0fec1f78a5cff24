/** Runs or resumes one knockout debate for `run`, `demo` and `resume`: preflight, live view, tables, exit code. */
import type { Scenario } from '../config/scenario.js';
import { AgoraError, ExitCode } from '../core/errors.js';
import { OllamaProvider } from '../llm/ollama-provider.js';
import { createRunDir, driveKnockout, type LoadedRun } from '../manager/debate-manager.js';
import { createRunLogger } from '../manager/logger.js';
import { createLiveView } from '../render/live-view.js';
import { agentTable, resultSummary, roundTable } from '../render/result-tables.js';
import type { CliIo } from './io.js';
import { preflight } from './preflight.js';

export interface DebateFlags {
  out: string;
  quiet: boolean;
  json: boolean;
  verbose: boolean;
  requestTimeoutMs?: number;
}

export async function runDebate(
  scenario: Scenario,
  host: string,
  flags: DebateFlags,
  io: CliIo,
  resume?: LoadedRun,
): Promise<number> {
  const requestTimeoutMs = flags.requestTimeoutMs ?? scenario.reliability.request_timeout_seconds * 1000;
  // Nothing is written before the server and every model have been checked.
  await preflight(new OllamaProvider({ host, requestTimeoutMs }), scenario);

  const { runId, paths } = resume
    ? { runId: resume.state.runId, paths: resume.paths }
    : createRunDir(flags.out, scenario);
  const logger = createRunLogger(paths.log, { verbose: flags.verbose });
  if (resume?.repairedTornLine) {
    logger.warn({ file: paths.events }, 'dropped a torn last line from the event log');
    io.stderr.write(
      `warning: the last line of ${paths.events} was cut off by a crash; it was dropped and that step will be redone\n`,
    );
  }
  const live = !flags.quiet && !flags.json;
  const view = live
    ? createLiveView(io.stdout, scenario.positions, { color: Boolean(io.stdout.isTTY) })
    : undefined;
  if (!flags.json) {
    const done = resume ? resume.state.rounds.filter((round) => round.end).length : 0;
    io.stdout.write(
      `${resume ? `Resuming run ${runId} after round ${done}` : `Run ${runId}`}\nWriting to ${paths.runDir}/\nOllama: ${host}\n`,
    );
  }

  const abort = new AbortController();
  let stopRequested = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopRequested) {
      io.stderr.write(`\n${signal} again: aborting the step in flight.\n`);
      abort.abort();
      return;
    }
    stopRequested = true;
    io.stderr.write(`\n${signal}: stopping after the step in flight (press Ctrl-C again to abort it).\n`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const outcome = await driveKnockout({
      paths,
      ...(resume ? { existing: resume.events } : { start: { runId, scenario } }),
      provider: new OllamaProvider({ host, logger, requestTimeoutMs }),
      logger,
      signal: abort.signal,
      stopRequested: () => stopRequested,
      ...(view ? { onNotice: view.onNotice, onEvent: view.onEvent } : {}),
    });
    const { transcript } = outcome;
    if (flags.json) {
      const { status, stopReason, error, rotations, stats } = transcript;
      io.stdout.write(
        `${JSON.stringify({ runId, runDir: paths.runDir, status, stopReason, error, rotations, stats }, null, 2)}\n`,
      );
    } else {
      io.stdout.write(
        `\n${resultSummary(transcript)}\n${agentTable(transcript)}\n${roundTable(transcript)}\n`,
      );
      io.stdout.write(`Transcript: ${paths.transcriptMarkdown}\n`);
    }
    if (transcript.status === 'completed') return ExitCode.ok;
    if (transcript.status === 'stopped') {
      if (!flags.json) io.stdout.write(`Stopped. Continue with: npm run agora -- resume ${paths.runDir}\n`);
      return ExitCode.interrupted;
    }
    if (outcome.error instanceof AgoraError) throw outcome.error;
    throw new AgoraError(
      `the run failed: ${transcript.error ?? transcript.stopReason}. Everything completed is kept in ${paths.runDir}/; continue it with \`npm run agora -- resume ${paths.runDir}\``,
      { exitCode: ExitCode.runFailed, cause: outcome.error },
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
