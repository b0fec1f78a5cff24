/**
 * Debates started and resumed from the browser: the form's request checked as `agora run` checks
 * its flags, the servers checked through the session layer, and the debate run in a worker process
 * of its own (`agora run` or `agora resume`), so it goes on if the viewer stops.
 */

import { existsSync } from 'node:fs';
import path from 'node:path';
import { personSeats } from '../config/person-seats.js';
import { FORMAT_NAMES } from '../config/scenario-schema.js';
import { OllamaProvider } from '../llm/ollama-provider.js';
import { checkServers } from '../session/debate-session.js';
import { makeRunId } from '../store/run-id.js';
import { lockOwner } from '../store/run-lock.js';
import { newRunPage, page } from './pages.js';
import { hasSeatToken, issueSeatToken } from './podium-seat.js';
import { HttpError } from './request-guards.js';
import { listScenarioChoices, readStartRequest } from './start-form.js';
import { readStartRecord, workerLogFile, writeStartRecord } from './start-record.js';
import type { ViewerParts } from './viewer-options.js';

/** What the viewer suggests when there is no Ollama: its own demo mode, not the terminal demo. */
const VIEWER_DEMO_HINT =
  "`agora serve --demo` (or `npm run agora -- serve --demo`) serves this viewer on Agora's built-in simulator (simulated text, no model needed)";

/** The Ollama the viewer asks which models it has. */
const ollama = (parts: ViewerParts) =>
  new OllamaProvider({ host: parts.options.ollamaHost, requestTimeoutMs: 5000 });

/** The arguments every worker of this viewer gets: where runs go, which Ollama, quiet. */
function workerArgs(parts: ViewerParts): string[] {
  const { options, runs } = parts;
  return [
    '--out',
    runs.outDir,
    '--host',
    options.ollamaHost,
    '--quiet',
    ...(options.simulator ? ['--simulated'] : []),
  ];
}

/** Checks the form's request and the servers, then starts the debate in a worker process. */
export async function startDebate(parts: ViewerParts, fields: Record<string, unknown>) {
  const { options, runs } = parts;
  const outDir = runs.outDir;
  const request = await readStartRequest(fields, {
    scenariosDir: options.scenariosDir,
    choices: await listScenarioChoices(options.scenariosDir),
    cwd: options.cwd,
  });
  // The run goes to the scenario's own servers for their models: it is checked there too.
  await checkServers(
    request.scenario,
    { host: options.ollamaHost, env: options.env ?? process.env, requestTimeoutMs: 5000 },
    { demoHint: VIEWER_DEMO_HINT, ...(request.givenModels ? { givenModels: request.givenModels } : {}) },
  );
  const base = makeRunId(new Date(), request.scenario.topic, request.scenario.seed);
  let runId = base;
  for (let suffix = 2; existsSync(path.join(outDir, runId)) || readStartRecord(outDir, runId); suffix += 1) {
    runId = `${base}-${suffix}`;
  }
  // A person's seat, from the form or the scenario's own `human: true`, is taken from the run
  // page's writing box: the worker has no terminal.
  const seated = personSeats(request.scenario).length > 0;
  const speakFrom = seated ? ['--speak-from', 'viewer'] : [];
  const args = [...request.args, ...speakFrom, '--run-id', runId, ...workerArgs(parts)];
  const logFile = workerLogFile(outDir, runId, 'run');
  const pid = options.launcher.launch(args, logFile);
  writeStartRecord(outDir, {
    runId,
    topic: request.scenario.topic,
    notices: request.notices,
    args,
    pid,
    logFile,
    startedAt: new Date().toISOString(),
  });
  options.logger.info({ runId, pid, args }, 'debate started');
  // The browser that starts a debate with a person's seat is the one that speaks for the person.
  const seatToken = seated ? issueSeatToken(outDir, runId) : undefined;
  return {
    runId,
    topic: request.scenario.topic,
    notices: request.notices,
    ...(seatToken ? { seatToken } : {}),
  };
}

/** Waits for a process that has written its run's end to release the run's lock (it exits within moments). */
async function lockReleased(runDir: string, waitMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  while (lockOwner(runDir) !== null) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** Resumes a stopped or interrupted debate in a worker process; 409 when there is nothing to resume. */
export async function resumeDebate(parts: ViewerParts, runId: string) {
  const { options, runs } = parts;
  const runDir = runs.runDir(runId);
  const view = runs.view(runId);
  if (lockOwner(runDir) !== null) {
    if (view.live) throw new HttpError(409, 'this debate is running already');
    // Its log has ended: the process that stopped it is letting go of the folder.
    if (!(await lockReleased(runDir))) {
      throw new HttpError(409, 'the process that stopped this debate has not let go of it yet; try again');
    }
  }
  if (!view.progress) throw new HttpError(409, 'this debate never started, so there is nothing to resume');
  if (view.progress.status === 'completed' || view.progress.status === 'degraded')
    throw new HttpError(409, 'this debate is complete');
  const logFile = workerLogFile(runs.outDir, runId, 'resume');
  // A person's seat is taken from the run page's writing box: the worker has no terminal.
  const seated = view.scenario !== undefined && personSeats(view.scenario).length > 0;
  const pid = options.launcher.launch(
    ['resume', runId, ...workerArgs(parts), ...(seated ? ['--speak-from', 'viewer'] : [])],
    logFile,
  );
  runs.resumed(runId, pid);
  options.logger.info({ runId, pid }, 'debate resumed');
  // A debate that seated a person at a terminal gets its seat token when first resumed here.
  const seatToken =
    seated && !hasSeatToken(runs.outDir, runId) ? issueSeatToken(runs.outDir, runId) : undefined;
  return { message: `Resuming in process ${pid}…`, pid, ...(seatToken ? { seatToken } : {}) };
}

/** The new-debate form, with the scenarios and the models the Ollama has, and an error when there is one. */
export async function newRunForm(parts: ViewerParts, values: Record<string, string>, error: string | null) {
  const { options, formOptions } = parts;
  let models: string[] = [];
  let modelsError: string | null = null;
  try {
    models = (await ollama(parts).listModels()).map((model) => model.name).sort();
  } catch (failure) {
    modelsError = `Could not list the models of the Ollama at ${options.ollamaHost} (${(failure as Error).message}).`;
  }
  return page(
    'New debate',
    newRunPage(
      {
        values,
        scenarios: await listScenarioChoices(options.scenariosDir),
        models,
        modelsError,
        formats: [...FORMAT_NAMES],
        error,
      },
      formOptions,
    ),
    formOptions,
  );
}

/** The models the viewer's Ollama has, by name. */
export async function modelNames(parts: ViewerParts): Promise<string[]> {
  return (await ollama(parts).listModels()).map((model) => model.name);
}
