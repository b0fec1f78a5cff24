import type { Scenario } from '../config/scenario.js';
import { stopConditionsText } from '../config/stop-conditions-text.js';
import { timeoutMilliseconds } from '../config/timeout-seconds.js';
import { AgoraError, ExitCode, UsageError } from '../core/errors.js';
import { formatNamed } from '../formats/index.js';
import { sharedJudgeWarning } from '../formats/shared/judge-impartiality.js';
import { leaseSession } from '../manager/claimed-run.js';
import { createRunDir, driveDebate, type LoadedRun, newNamedRunDir } from '../manager/debate-manager.js';
import { indexRun } from '../manager/indexing.js';
import { closeRunLogger, createRunLogger } from '../manager/logger.js';
import { createLiveView } from '../render/live-view.js';
import { wordWrapped } from '../render/word-wrapped.js';
import { fitLines } from '../render/wrap-text.js';
import { openLiveLog } from '../store/live-log.js';
import type { RunDatabase, RunLease } from '../store/postgres/run-database.js';
import { folderFor, indexFolderFor, type RunPlaces, singlePlace } from '../store/run-places.js';
import { writeFileAtomic } from '../store/write-files.js';
import { openCassetteFolder } from './cassette-folder.js';
import { colorWanted } from './color.js';
import { fitContextWindow } from './context-window-fit.js';
import type { CliIo } from './io.js';
import { createModelProvider, serverLines } from './model-providers.js';
import { checkServer, preflight } from './preflight.js';
import { describeSides, prepareScenario } from './prepare-scenario.js';
import { seedText, settleSeed } from './scenario-overrides.js';
import { listenForStopSignals } from './stop-signals.js';
import { terminalLayout } from './terminal-layout.js';

export interface DebateFlags {
  out: string;
  /** Where runs are kept (a council's records folder beside the runs folder); `out` alone without it. */
  places?: RunPlaces;
  quiet: boolean;
  json: boolean;
  verbose: boolean;
  requestTimeoutMs?: number;
  /** Also write the outcome here: the whole transcript for a .json file, else the solution or Markdown. */
  output?: string;
  /** The new run's id (its folder name) instead of one made from the time, topic and seed. */
  runId?: string;
  /** `host` is Agora's built-in simulator: recorded in the log, so every view marks the run as a demo. */
  simulated?: boolean;
  /** Record every model call of the run into this cassette folder (new or empty). */
  record?: string;
  /** Keep the run in the shared database too, step by step, under a lease (`--database`). */
  shared?: SharedRun;
}

export interface SharedRun {
  database: RunDatabase;
  owner: string;
  leaseSeconds: number;
  /** A resumed run's lease, already claimed; a new run is recorded and claimed here. */
  lease?: RunLease;
}

/** The failed steps that stand in a finished run's record, for the end-of-run report. */
export function failureReport(failures: readonly string[]): string {
  if (failures.length === 0) return '';
  const shown = failures.slice(0, 12).map((line) => `  - ${line}`);
  if (failures.length > shown.length) shown.push(`  - ... and ${failures.length - shown.length} more`);
  return `Degraded: ${failures.length} failed step${failures.length === 1 ? '' : 's'} stand${failures.length === 1 ? 's' : ''} in this record:\n${shown.join('\n')}\n`;
}

export interface ResumeTarget {
  loaded: LoadedRun;
  /** The caller holds the run's lock. */
  lockHeld: boolean;
}

export async function runDebate(
  requested: Scenario,
  host: string,
  flags: DebateFlags,
  io: CliIo,
  resume?: ResumeTarget,
): Promise<number> {
  const format = resume?.loaded.format ?? formatNamed(requested.format);
  if (!format) throw new AgoraError(`unknown format "${requested.format}"`, { exitCode: ExitCode.config });
  const requestTimeoutMs =
    flags.requestTimeoutMs ?? timeoutMilliseconds(requested.reliability.request_timeout_seconds);
  // Nothing is written before the server and every model have been checked.
  const settings = { host, env: io.env, requestTimeoutMs };
  const checker = createModelProvider(requested, settings);
  await checkServer(checker);
  // A new run settles its seed first: a formal debate's models and sides are drawn from it.
  let scenario = resume ? requested : await prepareScenario(settleSeed(requested), checker);
  await preflight(checker, scenario);
  const sharedJudge = sharedJudgeWarning(scenario);
  if (sharedJudge) io.stderr.write(`warning: ${sharedJudge}\n`);
  if (!resume) {
    // A resumed run keeps the window its log started with.
    const fit = await fitContextWindow(scenario, checker);
    scenario = fit.scenario;
    if (fit.warning) io.stderr.write(`warning: ${fit.warning}\n`);
  }

  const recorder = flags.record ? openCassetteFolder(flags.record) : undefined;
  const places = flags.places ?? singlePlace(flags.out);
  const { runId, paths } = resume
    ? { runId: resume.loaded.runId, paths: resume.loaded.paths }
    : flags.runId
      ? { runId: flags.runId, paths: newNamedRunDir(folderFor(places, scenario.format), flags.runId) }
      : createRunDir(folderFor(places, scenario.format), scenario);
  const logger = createRunLogger(paths.log, { verbose: flags.verbose });
  if (resume?.loaded.repairedTornLine) {
    logger.warn({ file: paths.events }, 'dropped a torn last line from the event log');
    io.stderr.write(
      `warning: the last line of ${paths.events} was cut off by a crash; it was dropped and that step will be redone\n`,
    );
  }
  const live = !flags.quiet && !flags.json;
  // With --quiet, a format's answer is all stdout carries; what the run says about itself goes to stderr.
  const answerOnly = flags.quiet && format.answer !== undefined;
  const info = answerOnly ? io.stderr : io.stdout;
  const layout = terminalLayout(io.stdout, io.env);
  // Statements wrap at word boundaries instead of wherever the screen cuts them; on a terminal one
  // column short, since a line exactly as wide as the screen makes some terminals add an empty line.
  const viewOut = wordWrapped(io.stdout, io.stdout.isTTY ? layout.width - 1 : layout.width);
  const view = live
    ? createLiveView(viewOut, { color: colorWanted(io.stdout, io.env), scenario })
    : undefined;
  // Lines wider than the screen are wrapped at word boundaries; tables are drawn to fit.
  const say = (text: string) => info.write(fitLines(text, layout.width));
  if (!flags.json) {
    const progress = resume ? format.progress(resume.loaded.state) : undefined;
    say(
      `${progress ? `Resuming run ${runId} (${progress.done} of ${progress.total} done)` : `Run ${runId}`}\nFormat: ${scenario.format}\nTopic: ${scenario.topic}\nWriting to ${paths.runDir}/\n${serverLines(checker, scenario, io.env)}`,
    );
    const sides = describeSides(scenario);
    if (sides) say(`${sides}\n`);
    if (!resume) say(`${seedText(scenario)}\n`);
    say(`${stopConditionsText(scenario)}\n`);
  }

  const abort = new AbortController();
  // A shared run goes on from the database, wherever its folder is.
  const resumeCommand = flags.shared
    ? `npm run agora -- resume ${runId} --database URL`
    : `npm run agora -- resume ${paths.runDir}`;
  const session = flags.shared
    ? leaseSession(
        flags.shared.database,
        flags.shared.lease ?? (await recordAndClaim(flags.shared, runId, scenario)),
        flags.shared.leaseSeconds,
        logger,
        abort.signal,
      )
    : undefined;
  // Viewers in other processes (`agora serve`) follow the step in flight through live.jsonl.
  const liveLog = openLiveLog(paths.runDir, resume?.loaded.events.at(-1)?.seq ?? 0);
  let stopRequested = false;
  const stopListening = listenForStopSignals({
    stop(signal) {
      stopRequested = true;
      io.stderr.write(`\n${signal}: stopping after the step in flight (press Ctrl-C again to abort it).\n`);
    },
    abort(signal) {
      io.stderr.write(`\n${signal} again: aborting the step in flight.\n`);
      abort.abort();
    },
  });
  try {
    const outcome = await driveDebate({
      format,
      paths,
      ...(resume
        ? { existing: resume.loaded.events, lockHeld: resume.lockHeld }
        : { start: { runId, scenario } }),
      ...(flags.simulated ? { simulated: true } : {}),
      provider: createModelProvider(scenario, { ...settings, logger, ...(recorder ? { recorder } : {}) }),
      logger,
      signal: session?.signal ?? abort.signal,
      stopRequested: () => stopRequested || session?.stopAsked() === true,
      ...(session ? { commit: session.commit } : {}),
      onNotice: (notice) => {
        liveLog.write(notice);
        view?.onNotice(notice);
      },
      onEvent: (event) => {
        liveLog.eventAppended(event.seq);
        view?.onEvent(event);
      },
    });
    const { transcript } = outcome;
    try {
      indexRun(indexFolderFor(places, paths.runDir), paths.runDir, formatNamed);
    } catch (error) {
      // The log is the record; an index that could not be updated is rebuilt by `agora reindex`.
      logger.warn({ err: error }, 'run index not updated');
      io.stderr.write(
        `warning: the run index was not updated (${(error as Error).message}); \`agora reindex\` rebuilds it\n`,
      );
    }
    if (flags.output) {
      const text = flags.output.endsWith('.json')
        ? `${JSON.stringify(transcript, null, 2)}\n`
        : (format.solutionText?.(outcome.state) ?? format.markdown(outcome.state));
      writeFileAtomic(flags.output, text);
      if (!flags.json) info.write(`Wrote ${flags.output}\n`);
    }
    const failures = format.failures(outcome.state);
    const answer = format.answer?.(outcome.state);
    if (flags.json) {
      const progress = format.progress(outcome.state);
      io.stdout.write(
        `${JSON.stringify({ runId, runDir: paths.runDir, format: format.name, seed: scenario.seed, status: transcript.status, stopReason: transcript.stopReason, error: transcript.error, failedSteps: failures.length, failures, progress, stats: (transcript as { stats?: unknown }).stats ?? null, ...(answer === undefined ? {} : { solution: answer }), transcript: paths.transcriptJson }, null, 2)}\n`,
      );
    } else if (answerOnly) {
      io.stdout.write(answer ?? '');
      io.stderr.write(`${failureReport(failures)}Transcript: ${paths.transcriptMarkdown}\n`);
    } else {
      viewOut.flush();
      say(`\n${format.report(outcome.state, layout)}\n`);
      // The answer (a critique's solution) as written, not re-wrapped: it may hold code or tables.
      if (answer) io.stdout.write(`\n${answer}\n`);
      say(`${failureReport(failures)}Transcript: ${paths.transcriptMarkdown}\n`);
    }
    if (outcome.commitRefused) {
      // However the run ended here, the shared record stops at its last committed step.
      const why = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
      throw new AgoraError(
        `the database did not take the debate's last step (${why}); it holds the run up to the step before, and this folder's copy goes further than the record. Continue it with \`${resumeCommand}\``,
        {
          exitCode: outcome.error instanceof AgoraError ? outcome.error.exitCode : ExitCode.database,
          cause: outcome.error,
        },
      );
    }
    if (transcript.status === 'completed') return ExitCode.ok;
    if (transcript.status === 'degraded') {
      io.stderr.write(
        `agora: the debate ran to its end, but ${failures.length} failed step${failures.length === 1 ? '' : 's'} decided part of it (status degraded, exit ${ExitCode.degraded}); see ${paths.transcriptMarkdown}\n`,
      );
      return ExitCode.degraded;
    }
    if (transcript.status === 'stopped') {
      if (!flags.json) info.write(`Stopped. Continue with: ${resumeCommand}\n`);
      return ExitCode.interrupted;
    }
    if (outcome.error instanceof AgoraError) {
      throw new AgoraError(
        `${outcome.error.message}. Everything completed is kept in ${paths.runDir}/; once that is fixed, continue it with \`${resumeCommand}\``,
        { exitCode: outcome.error.exitCode, cause: outcome.error },
      );
    }
    throw new AgoraError(
      `the run failed: ${transcript.error ?? transcript.stopReason}. Everything completed is kept in ${paths.runDir}/; continue it with \`${resumeCommand}\``,
      { exitCode: ExitCode.runFailed, cause: outcome.error },
    );
  } finally {
    if (recorder && !flags.json) {
      info.write(
        `Recorded ${recorder.count} model call${recorder.count === 1 ? '' : 's'} into ${recorder.dir}/\n`,
      );
    }
    if (recorder?.writeError) {
      io.stderr.write(
        `warning: the cassette in ${recorder.dir} is incomplete: ${recorder.writeError.message}; record it again\n`,
      );
    }
    session?.close();
    stopListening();
    await liveLog.close();
    closeRunLogger(logger);
  }
}

/** A new run in the shared database: recorded, then claimed by this process. */
async function recordAndClaim(shared: SharedRun, runId: string, scenario: Scenario): Promise<RunLease> {
  const added = await shared.database.addRun({
    runId,
    format: scenario.format,
    topic: scenario.topic,
    scenario: JSON.stringify(scenario),
  });
  const claim = added ? await shared.database.claim(runId, shared.owner, shared.leaseSeconds) : null;
  if (!claim) {
    throw new UsageError(
      `the shared database already holds a run with the id ${runId}; pick another id with --run-id`,
    );
  }
  return { runId, owner: claim.owner, epoch: claim.epoch };
}
