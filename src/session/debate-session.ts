/**
 * One debate, whichever entry point asked for it: the scenario settled against its servers (seed,
 * formal sides, impartial judge, context window), the servers checked, the store chosen (a run
 * folder, and the shared database under a lease when asked), the run driven and indexed, and its
 * outcome handed back as data. What to show of it is the caller's: a listener hears the warnings,
 * the start and every event as they come.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import { personSeats } from '../config/person-seats.js';
import type { Scenario } from '../config/scenario.js';
import { settleSeed } from '../config/scenario-overrides.js';
import { timeoutMilliseconds } from '../config/timeout-seconds.js';
import { AgoraError, ExitCode } from '../core/errors.js';
import type { RunEvent } from '../core/events.js';
import type { LiveNotice } from '../core/live.js';
import type { RunProgress } from '../core/run-progress.js';
import type { AnyFormat } from '../formats/format-definition.js';
import { formatNamed } from '../formats/index.js';
import { sharedJudgeWarning } from '../formats/shared/judge-impartiality.js';
import { type PersonInput, PodiumProvider } from '../llm/podium-provider.js';
import type { ModelProvider } from '../llm/provider.js';
import { leaseSession } from '../manager/claimed-run.js';
import {
  createRunDir,
  driveDebate,
  type LoadedRun,
  newNamedRunDir,
  type RunOutcome,
  type RunPaths,
} from '../manager/debate-manager.js';
import { indexRuns } from '../manager/indexing.js';
import { lastLineRepair } from '../manager/last-line-repair.js';
import { closeRunLogger, createRunLogger } from '../manager/logger.js';
import type { CassetteRecorder } from '../mock-ollama/index.js';
import { type LiveLogWriter, openLiveLog } from '../store/live-log.js';
import { folderFor, indexFolderFor, type RunPlaces, singlePlace } from '../store/run-places.js';
import { stopWasRequested } from '../store/stop-request.js';
import { scenarioFits } from './call-kind-fits.js';
import { openCassetteFolder } from './cassette-folder.js';
import { fitContextWindow } from './context-window-fit.js';
import { checkGivenModels, type GivenModels } from './given-models.js';
import { createModelProvider, providerOverHosts, serverLines } from './model-providers.js';
import { checkServer, preflight } from './preflight.js';
import { prepareScenario } from './prepare-scenario.js';
import { resumeCommandFor } from './resume-command.js';
import { recordAndClaim, type SharedRun } from './shared-runs.js';

/** Where a debate's models are served. */
export interface SessionServers {
  /** The Ollama host, resolved from --host, the scenario and OLLAMA_HOST. */
  host: string;
  /** Where a scenario's own servers (`providers:`) and their keys are found. */
  env: Record<string, string | undefined>;
  /** Upper bound of one model call; default the scenario's `reliability.request_timeout_seconds`. */
  requestTimeoutMs?: number;
  /**
   * The Ollama hosts already built and checked for every scenario of a batch (behind their limits);
   * `host` then only names them, and a new run is settled against them without a second check.
   */
  pool?: ModelProvider;
}

/** Where the run is kept. */
export interface SessionStore {
  /** The runs folder. */
  out: string;
  /** Where runs are kept, when a council's records folder is not `out` (see store/run-places.ts). */
  places?: RunPlaces;
  /** A new run's id (its folder's name) instead of one made from the time, topic and seed. */
  runId?: string;
  /** The caller holds the run folder's lock already. */
  lockHeld?: boolean;
  /** Keep the run in the shared database too, step by step, under a lease. */
  shared?: SharedRun;
  /** Which batch each run belongs to, for the run index (read from the batch plans when absent). */
  batchOf?: ReadonlyMap<string, string>;
  /** Write `live.jsonl`, so viewers in other processes follow the step in flight (default true). */
  followLive?: boolean;
}

export interface SessionRequest {
  /** The debate asked for: a new run's scenario, or the one a resumed run's log started with. */
  scenario: Scenario;
  /** Reads the statements of the person at the podium, when the scenario seats one. */
  person?: PersonInput;
  /** Or makes that reader once the run's folder is known (the viewer's writing box is kept there). */
  personFor?: (runDir: string) => PersonInput;
  /** Continue this run instead of starting one. */
  resume?: ResumeTarget;
  servers: SessionServers;
  store: SessionStore;
  /** `host` is Agora's built-in simulator: recorded in the log, so every view marks the run as a demo. */
  simulated?: boolean;
  /** Record every model call into this cassette folder (new or empty). */
  record?: string;
  /** Models given outside the scenario file (`--models`): a missing one is blamed on them. */
  givenModels?: GivenModels;
  /** Debug lines on stderr too, besides `<run dir>/run.log`. */
  verbose?: boolean;
  /** Aborts the step in flight. */
  signal: AbortSignal;
  /** True ends the run after the step in flight, stopped and resumable. */
  stopRequested: () => boolean;
}

export interface ResumeTarget {
  loaded: LoadedRun;
  /** The caller holds the run's lock. */
  lockHeld: boolean;
}

/** What a run is, once settled and given its place: the caller's header. */
export interface SessionStart {
  runId: string;
  paths: RunPaths;
  format: AnyFormat;
  scenario: Scenario;
  /** A resumed run's progress when it was taken up. */
  resumedAt?: RunProgress;
  /** Which servers the models go to, a line each (addresses only: keys stay in the environment). */
  servers: string;
  /** The command that continues this run if it stops. */
  resumeCommand: string;
}

export interface SessionListener {
  /** Something the user should know that does not stop the run. */
  warning(text: string): void;
  started?(start: SessionStart): void;
  notice?(notice: LiveNotice): void;
  event?(event: RunEvent): void;
}

export interface SessionOutcome extends RunOutcome, SessionStart {
  /** The failed steps that stand in the record. */
  failures: string[];
  /** The answer the user ran the format for (a critique's solution), when it has one. */
  answer?: string;
  /** The model calls recorded into a cassette (`record`). */
  recorded?: { count: number; dir: string };
}

/** Settles a new run's scenario against its servers, checking them first; a resumed run's stays as logged. */
async function settle(request: SessionRequest, checker: ModelProvider, listener: SessionListener) {
  // A batch's hosts were checked for every scenario of the batch before its first debate.
  const checked = request.servers.pool !== undefined;
  if (!checked) await checkServer(checker);
  // A new run settles its seed first: a formal debate's models and sides are drawn from it.
  let scenario = request.resume
    ? request.scenario
    : await prepareScenario(settleSeed(request.scenario), checker);
  if (!checked) {
    await checkGivenModels(checker, scenario, request.givenModels);
    await preflight(checker, scenario);
    const sharedJudge = sharedJudgeWarning(scenario);
    if (sharedJudge) listener.warning(sharedJudge);
  }
  if (!request.resume) {
    // A resumed run keeps the window its log started with.
    const fit = await fitContextWindow(scenario, checker);
    scenario = fit.scenario;
    if (fit.warning) listener.warning(fit.warning);
    // What `doctor` refuses is refused here too, before the first call, where a server's own
    // tokenizer gives each model's rate (no model call is made for it).
    const fits = await scenarioFits(checker, scenario, scenario.model_options.context_window, {
      tokenizerOnly: true,
    });
    if (fits.error && fits.rates.some(({ rate }) => rate !== undefined)) throw fits.error;
  }
  return scenario;
}

/** The model servers a run of `scenario` talks to. */
function providerFor(
  scenario: Scenario,
  servers: SessionServers,
  extra: { logger?: Logger; recorder?: CassetteRecorder; warning?: (text: string) => void } = {},
): ModelProvider {
  const requestTimeoutMs =
    servers.requestTimeoutMs ?? timeoutMilliseconds(scenario.reliability.request_timeout_seconds);
  if (servers.pool) return providerOverHosts(scenario, servers.pool, servers.env, requestTimeoutMs);
  return createModelProvider(scenario, { host: servers.host, env: servers.env, requestTimeoutMs, ...extra });
}

/** Refuses a debate that seats a person when this command has no one to ask for their statements. */
function checkPersonSeat(request: SessionRequest): void {
  const seats = personSeats(request.scenario);
  if (seats.length === 0 || request.person || request.personFor) return;
  throw new AgoraError(
    `this debate seats a person (${seats.join(', ')}: human: true in ${request.scenario.file}), who speaks only through \`agora run\` or \`agora resume\` on a terminal or a pipe, or the viewer's run page; run it that way, or remove human: true`,
    { exitCode: ExitCode.config },
  );
}

/** The provider with the person at the podium seated, when the scenario has a person's seat. */
function seatedProvider(
  provider: ModelProvider,
  scenario: Scenario,
  person: PersonInput | undefined,
  stopRequested: () => boolean,
) {
  if (personSeats(scenario).length === 0 || !person) return provider;
  return new PodiumProvider(provider, person, { stopRequested });
}

/**
 * Checks a debate's servers without starting it here (the viewer starts it in a process of its
 * own): the Ollama answers, and every model is where the scenario sends it.
 */
export async function checkServers(
  scenario: Scenario,
  servers: SessionServers,
  options: { demoHint?: string; givenModels?: GivenModels } = {},
): Promise<void> {
  const provider = providerFor(scenario, servers);
  await checkServer(provider, ...(options.demoHint ? [options.demoHint] : []));
  await checkGivenModels(provider, scenario, options.givenModels);
  await preflight(provider, scenario);
}

/** A new run's folder, or the resumed run's. Nothing is written before the servers were checked. */
function place(request: SessionRequest, scenario: Scenario): { runId: string; paths: RunPaths } {
  const { resume, store } = request;
  if (resume) return { runId: resume.loaded.runId, paths: resume.loaded.paths };
  const folder = folderFor(store.places ?? singlePlace(store.out), scenario.format);
  if (store.runId) {
    return {
      runId: store.runId,
      paths: newNamedRunDir(folder, store.runId, { lockHeld: store.lockHeld === true }),
    };
  }
  return createRunDir(folder, scenario);
}

/** Runs or resumes one debate to the end of this segment; the outcome says how it ended. */
export async function runSession(
  request: SessionRequest,
  listener: SessionListener,
): Promise<SessionOutcome> {
  const { resume, store, servers } = request;
  const format = resume?.loaded.format ?? formatNamed(request.scenario.format);
  if (!format)
    throw new AgoraError(`unknown format "${request.scenario.format}"`, { exitCode: ExitCode.config });
  // A debate that seats a person needs someone to ask; refused before anything is written.
  checkPersonSeat(request);
  const checker = providerFor(request.scenario, servers);
  const scenario = await settle(request, checker, listener);
  const serverText = serverLines(checker, scenario, servers.env);
  const recorder = request.record ? openCassetteFolder(request.record) : undefined;
  const { runId, paths } = place(request, scenario);
  const logger = createRunLogger(paths.log, { verbose: request.verbose === true });
  const repair = resume ? lastLineRepair(resume.loaded) : null;
  if (repair !== null) {
    logger.warn({ file: paths.events }, repair);
    listener.warning(repair);
  }
  // A shared run goes on from the database, wherever its folder is; a run on the built-in
  // simulator goes on only on the simulator again.
  const resumeCommand = resumeCommandFor({
    runId,
    runDir: paths.runDir,
    scenario,
    host: servers.host,
    env: servers.env,
    shared: store.shared !== undefined,
    simulated: request.simulated === true,
  });
  const start: SessionStart = {
    runId,
    paths,
    format,
    scenario,
    ...(resume ? { resumedAt: format.progress(resume.loaded.state) } : {}),
    servers: serverText,
    resumeCommand,
  };
  listener.started?.(start);
  const provider = seatedProvider(
    providerFor(scenario, servers, { logger, warning: listener.warning, ...(recorder ? { recorder } : {}) }),
    scenario,
    request.person ?? request.personFor?.(paths.runDir),
    // A stop asked for while the person has not spoken pauses the run at their turn at once.
    () => request.stopRequested() || stopWasRequested(paths.runDir),
  );
  let lease: ReturnType<typeof leaseSession> | undefined;
  let liveLog: LiveLogWriter | undefined;
  try {
    if (store.shared) {
      const held = store.shared.lease ?? (await recordAndClaim(store.shared, runId, scenario));
      lease = leaseSession(store.shared.database, held, store.shared.leaseSeconds, logger, request.signal);
    }
    // Viewers in other processes (`agora serve`) follow the step in flight through live.jsonl.
    if (store.followLive !== false) {
      liveLog = openLiveLog(paths.runDir, resume?.loaded.events.at(-1)?.seq ?? 0);
    }
    const shared = lease;
    const live = liveLog;
    const outcome = await driveDebate({
      format,
      paths,
      ...(resume
        ? { existing: resume.loaded.events, lockHeld: resume.lockHeld }
        : { start: { runId, scenario }, lockHeld: store.lockHeld === true }),
      ...(request.simulated ? { simulated: true } : {}),
      provider,
      logger,
      signal: shared?.signal ?? request.signal,
      stopRequested: () => request.stopRequested() || shared?.stopAsked() === true,
      ...(shared ? { commit: shared.commit } : {}),
      onNotice: (notice) => {
        live?.write(notice);
        listener.notice?.(notice);
      },
      onEvent: (event) => {
        live?.eventAppended(event.seq);
        listener.event?.(event);
      },
    });
    indexRun(paths.runDir, {
      indexFolder: indexFolderFor(store.places ?? singlePlace(store.out), paths.runDir),
      ...(store.batchOf ? { batchOf: store.batchOf } : {}),
      warning: listener.warning,
      logger,
    });
    const answer = format.answer?.(outcome.state);
    return {
      ...outcome,
      ...start,
      failures: format.failures(outcome.state),
      ...(answer === undefined ? {} : { answer }),
      ...(recorder ? { recorded: { count: recorder.count, dir: recorder.dir } } : {}),
    };
  } finally {
    if (recorder?.writeError) {
      listener.warning(
        `the cassette in ${recorder.dir} is incomplete: ${recorder.writeError.message}; record it again`,
      );
    }
    lease?.close();
    await liveLog?.close();
    closeRunLogger(logger);
  }
}

/**
 * Records a run in its runs folder's index. The log is the record: an index that could not be
 * updated is a warning (`agora reindex` rebuilds it), never the run's failure.
 */
export function indexRun(
  runDir: string,
  options: {
    /** The runs folder whose index records the run; the folder the run is in when absent. */
    indexFolder?: string;
    batchOf?: ReadonlyMap<string, string>;
    warning: (text: string) => void;
    logger?: Logger;
  },
) {
  try {
    indexRuns(
      options.indexFolder ?? path.dirname(runDir),
      [runDir],
      formatNamed,
      ...(options.batchOf ? [options.batchOf] : []),
    );
  } catch (error) {
    options.logger?.warn({ err: error }, 'run index not updated');
    options.warning(
      `the run index was not updated (${(error as Error).message}); \`agora reindex\` rebuilds it`,
    );
  }
}
