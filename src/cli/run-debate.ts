/** Runs one knockout debate for `run` and `demo`: preflight, live view, tables, exit code. */
import type { Scenario } from '../config/scenario.js';
import { AgoraError, ExitCode } from '../core/errors.js';
import { OllamaProvider } from '../llm/ollama-provider.js';
import { createRunDir, runKnockout } from '../manager/debate-manager.js';
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
): Promise<number> {
  const provider = new OllamaProvider({
    host,
    ...(flags.requestTimeoutMs ? { requestTimeoutMs: flags.requestTimeoutMs } : {}),
  });
  await preflight(provider, scenario);

  const { runId, paths } = createRunDir(flags.out, scenario);
  const logger = createRunLogger(paths.log, { verbose: flags.verbose });
  const live = !flags.quiet && !flags.json;
  const view = live
    ? createLiveView(io.stdout, scenario.positions, { color: Boolean(io.stdout.isTTY) })
    : undefined;
  if (!flags.json) io.stdout.write(`Run ${runId}\nWriting to ${paths.runDir}/\nOllama: ${host}\n`);

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
    const outcome = await runKnockout({
      scenario,
      runId,
      paths,
      provider: new OllamaProvider({
        host,
        logger,
        ...(flags.requestTimeoutMs ? { requestTimeoutMs: flags.requestTimeoutMs } : {}),
      }),
      logger,
      signal: abort.signal,
      stopRequested: () => stopRequested,
      ...(view ? { onNotice: view.onNotice, onEvent: view.onEvent } : {}),
    });
    const { transcript } = outcome;
    if (flags.json) {
      io.stdout.write(
        `${JSON.stringify({ runId, runDir: paths.runDir, status: transcript.status, stopReason: transcript.stopReason, error: transcript.error, rotations: transcript.rotations, stats: transcript.stats }, null, 2)}\n`,
      );
    } else {
      io.stdout.write(
        `\n${resultSummary(transcript)}\n${agentTable(transcript)}\n${roundTable(transcript)}\n`,
      );
      io.stdout.write(`Transcript: ${paths.transcriptMarkdown}\n`);
    }
    if (transcript.status === 'completed') return ExitCode.ok;
    if (transcript.status === 'stopped') return ExitCode.interrupted;
    if (outcome.error instanceof AgoraError) throw outcome.error;
    throw new AgoraError(
      `the run failed: ${transcript.error ?? transcript.stopReason}. What was completed is kept in ${paths.runDir}/`,
      {
        exitCode: ExitCode.runFailed,
        cause: outcome.error,
      },
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    logger.flush?.();
  }
}
