/**
 * `agora serve`: the live web viewer. Pages and fragments are rendered here from the run logs; a
 * page follows its run through server-sent events; debates started, stopped or resumed from the
 * browser run in worker processes. Binds to loopback unless told otherwise, and then needs a token.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { type LeaderboardOptions, leaderboard } from '../analytics/leaderboard.js';
import { FORMAT_NAMES } from '../config/scenario-schema.js';
import { AgoraError } from '../core/errors.js';
import { isSimulated } from '../core/events.js';
import { formatNamed } from '../formats/index.js';
import { OllamaProvider } from '../llm/ollama-provider.js';
import { openRunIndex } from '../manager/indexing.js';
import { listRuns } from '../manager/run-listing.js';
import { checkServers } from '../session/debate-session.js';
import { isRunId, makeRunId } from '../store/run-id.js';
import { lockOwner } from '../store/run-lock.js';
import { appendSpectatorVote } from '../store/spectator-votes.js';
import { requestStop } from '../store/stop-request.js';
import { readWebAsset } from './assets.js';
import { isLoopback, originHost, parseHost } from './host-header.js';
import {
  cookies,
  HttpError,
  readBody,
  sameSecret,
  send,
  sendHtml,
  sendJson,
  startEventStream,
  writeEvent,
} from './http-helpers.js';
import {
  exportDocument,
  leaderboardPage,
  messagePage,
  newRunPage,
  page,
  runPage,
  runsPage,
  runsRowsHtml,
  SIMULATED_RUN_BANNER,
} from './pages.js';
import { RunFeed } from './run-feed.js';
import { currentRound, spectatorChoices } from './run-view.js';
import { listScenarioChoices, readStartRequest } from './start-form.js';
import { readStartRecord, workerLogFile, writeStartRecord } from './start-record.js';
import type { WorkerLauncher } from './workers.js';

export interface ViewerOptions {
  /** The runs folder (`transcripts/`). */
  outDir: string;
  /** Where scenario paths and context files resolve from. */
  cwd: string;
  scenariosDir: string;
  /** The Ollama the debates started here use. */
  ollamaHost: string;
  /** Interface to listen on; default 127.0.0.1. */
  bind?: string;
  port?: number;
  /** Needed (and then asked of every request) when `bind` is not a loopback address. */
  accessToken?: string;
  launcher: WorkerLauncher;
  logger: Logger;
  /**
   * The Ollama host is Agora's built-in simulator (`serve --demo`): debates started here are
   * recorded as simulated, and the new-debate form carries this banner.
   */
  simulator?: { banner: string };
  /** How often a live page's run is polled; default 200 ms. */
  pollMs?: number;
  /**
   * Where a scenario's own model servers (`providers:`) and their keys are found, as the debates
   * started here find them; default this process's environment.
   */
  env?: Record<string, string | undefined>;
}

export interface Viewer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** What the viewer suggests when there is no Ollama: its own demo mode, not the terminal demo. */
const VIEWER_DEMO_HINT =
  "`agora serve --demo` (or `npm run agora -- serve --demo`) serves this viewer on Agora's built-in simulator (simulated text, no model needed)";

/** Which runs the leaderboard counts: `?batch=` for one batch, `?demo=1` to count simulated runs too. */
function leaderboardOptions(url: URL): LeaderboardOptions {
  const batch = url.searchParams.get('batch') || undefined;
  return {
    ...(batch ? { batchId: batch } : {}),
    ...(url.searchParams.get('demo') === '1' ? { includeDemo: true } : {}),
  };
}

/** The path's segments, decoded; broken percent-encoding is the client's error, not the server's. */
function pathParts(pathname: string): string[] {
  try {
    return pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw new HttpError(400, `the path ${pathname} is not valid percent-encoding`);
  }
}

export async function startViewer(options: ViewerOptions): Promise<Viewer> {
  const bind = options.bind ?? '127.0.0.1';
  // On loopback the Host is the guard; beyond it, the access token.
  const loopbackOnly = isLoopback(bind);
  if (!loopbackOnly && !options.accessToken) {
    throw new AgoraError(
      `serving on ${bind} makes the viewer reachable from other machines; give --token SECRET (or AGORA_TOKEN) so only people who have it get in`,
      { exitCode: 2 },
    );
  }
  const csrf = randomBytes(24).toString('base64url');
  const pageOptions = { csrf };
  // The demo's notice belongs where simulated text is made or shown, not on real runs.
  const formOptions = { csrf, banner: options.simulator?.banner };
  const simulatedFlag = options.simulator ? ['--simulated'] : [];
  const assets = { 'app.js': readWebAsset('app.js'), 'style.css': readWebAsset('style.css') };
  const streams = new Set<ServerResponse>();
  const pollMs = options.pollMs ?? 200;
  const { logger, outDir } = options;

  const runDirOf = (runId: string) => {
    if (!isRunId(runId)) throw new HttpError(400, `"${runId}" is not a run id`);
    const runDir = path.join(outDir, runId);
    if (!existsSync(path.join(runDir, 'events.jsonl')) && !readStartRecord(outDir, runId)) {
      throw new HttpError(404, `there is no run ${runId} in ${outDir}`);
    }
    return runDir;
  };

  const checkHost = (request: IncomingMessage) => {
    const given = request.headers.host;
    const host = given === undefined ? null : parseHost(given);
    if (host === null) {
      if (given === undefined && !loopbackOnly) return;
      throw new HttpError(400, 'the Host header must be a host name or address, optionally with a port');
    }
    // A loopback server answers only to its own names, so another site cannot rebind a name to it.
    if (loopbackOnly && !isLoopback(host.hostname)) {
      throw new HttpError(421, `this viewer answers to localhost and 127.0.0.1, not to "${host.hostname}"`);
    }
  };

  const requestUrl = (request: IncomingMessage): URL => {
    try {
      // Only the path and query are read from it; the base is never shown.
      return new URL(request.url ?? '/', 'http://viewer.invalid');
    } catch {
      throw new HttpError(400, 'the request target is not a path');
    }
  };

  /** Non-loopback servers: every request needs the access token (a cookie once given in ?access=). */
  const checkAccess = (request: IncomingMessage, url: URL, response: ServerResponse): boolean => {
    const token = options.accessToken;
    if (!token || loopbackOnly) return true;
    const given = url.searchParams.get('access');
    if (given !== null && sameSecret(given, token)) {
      url.searchParams.delete('access');
      response.writeHead(303, {
        // One leading slash: `//name/` would send the browser to another site.
        location: `/${url.pathname.replace(/^\/+/, '')}${url.search}`,
        'set-cookie': `agora_access=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`,
      });
      response.end();
      return false;
    }
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (sameSecret(cookies(request).get('agora_access'), token) || sameSecret(bearer, token)) return true;
    throw new HttpError(401, 'this viewer needs its access token: open it with ?access=TOKEN');
  };

  /** State changes need the page's token and, when the browser says where it comes from, this origin. */
  const checkSameOrigin = (request: IncomingMessage, body: Record<string, unknown>) => {
    const given = request.headers['x-agora-token'] ?? body.token;
    if (!sameSecret(typeof given === 'string' ? given : undefined, csrf)) {
      throw new HttpError(403, 'missing or wrong page token: reload the page and try again');
    }
    const origin = request.headers.origin;
    if (origin) {
      const from = originHost(origin);
      const sameAsHost = origin.toLowerCase() === `http://${request.headers.host ?? ''}`.toLowerCase();
      if (from === null || !sameAsHost || (loopbackOnly && !isLoopback(from.hostname))) {
        throw new HttpError(403, `requests from ${origin} are not accepted`);
      }
    }
  };

  const provider = () => new OllamaProvider({ host: options.ollamaHost, requestTimeoutMs: 5000 });

  const startDebate = async (body: Record<string, unknown>) => {
    const choices = await listScenarioChoices(options.scenariosDir);
    const request = await readStartRequest(body, {
      scenariosDir: options.scenariosDir,
      choices,
      cwd: options.cwd,
    });
    // The run goes to the scenario's own servers for their models: it is checked there too.
    await checkServers(
      request.scenario,
      { host: options.ollamaHost, env: options.env ?? process.env, requestTimeoutMs: 5000 },
      VIEWER_DEMO_HINT,
    );
    const base = makeRunId(new Date(), request.scenario.topic, request.scenario.seed);
    let runId = base;
    for (
      let suffix = 2;
      existsSync(path.join(outDir, runId)) || readStartRecord(outDir, runId);
      suffix += 1
    ) {
      runId = `${base}-${suffix}`;
    }
    const args = [
      ...request.args,
      '--run-id',
      runId,
      '--out',
      outDir,
      '--host',
      options.ollamaHost,
      '--quiet',
      ...simulatedFlag,
    ];
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
    logger.info({ runId, pid, args }, 'debate started');
    return { runId, topic: request.scenario.topic, notices: request.notices };
  };

  const newRunForm = async (values: Record<string, string>, error: string | null) => {
    let models: string[] = [];
    let modelsError: string | null = null;
    try {
      models = (await provider().listModels()).map((model) => model.name).sort();
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
  };

  const openIndex = () => openRunIndex(outDir, formatNamed);

  const filteredRuns = async (url: URL) => {
    const status = url.searchParams.get('status') || undefined;
    const format = url.searchParams.get('format') || undefined;
    const topic = url.searchParams.get('topic') || undefined;
    const runs = (await listRuns(outDir)).filter(
      (run) =>
        (!status || run.status === status) &&
        (!format || run.format === format) &&
        (!topic || run.topic.toLowerCase().includes(topic.toLowerCase())),
    );
    // Newest first: the run just started is the one a visitor looks for.
    runs.sort((left, right) => right.startedAt.localeCompare(left.startedAt));
    return { runs, filters: { status, format, topic } };
  };

  const streamRun = (request: IncomingMessage, response: ServerResponse, runId: string) => {
    const feed = new RunFeed(outDir, runId, formatNamed);
    // Sequence numbers start at 0; without Last-Event-ID the whole log is sent.
    const lastId = Number(request.headers['last-event-id'] ?? -1);
    startEventStream(response);
    streams.add(response);
    const deliver = (messages: ReturnType<RunFeed['poll']>) => {
      for (const message of messages) {
        writeEvent(
          response,
          message.kind,
          message.data,
          message.kind === 'run-event' ? message.id : undefined,
        );
      }
    };
    deliver(feed.start(Number.isInteger(lastId) ? lastId : -1));
    let beat = 0;
    const timer = setInterval(() => {
      try {
        deliver(feed.poll());
        beat += pollMs;
        if (beat >= 15_000) {
          beat = 0;
          response.write(': keep-alive\n\n');
        }
      } catch (error) {
        logger.warn({ err: error, runId }, 'live feed failed');
      }
    }, pollMs);
    const end = () => {
      clearInterval(timer);
      streams.delete(response);
    };
    request.on('close', end);
    response.on('close', end);
  };

  const routes = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const method = request.method ?? 'GET';
    const parts = pathParts(url.pathname);
    const [first, second, third, fourth] = parts;
    const isApi = first === 'api';

    if (method === 'GET') {
      if (parts.length === 0) {
        const { runs, filters } = await filteredRuns(url);
        return sendHtml(response, 200, page('Runs', runsPage(runs, filters, [...FORMAT_NAMES]), pageOptions));
      }
      if (first === 'assets' && (second === 'app.js' || second === 'style.css') && parts.length === 2) {
        const type = second.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8';
        return send(response, 200, type, assets[second]);
      }
      if (first === 'fragments' && second === 'runs') {
        const { runs } = await filteredRuns(url);
        return sendHtml(response, 200, runsRowsHtml(runs).value);
      }
      if (first === 'new' && parts.length === 1) return sendHtml(response, 200, await newRunForm({}, null));
      if (first === 'leaderboard' && parts.length === 1) {
        const batch = url.searchParams.get('batch') || undefined;
        const includeDemo = url.searchParams.get('demo') === '1';
        const index = openIndex();
        try {
          const tables = leaderboard(index, leaderboardOptions(url));
          return sendHtml(
            response,
            200,
            page('Leaderboard', leaderboardPage(tables, batch, includeDemo), pageOptions),
          );
        } finally {
          index.close();
        }
      }
      if (first === 'runs' && second && parts.length <= 3) {
        runDirOf(second);
        const feed = new RunFeed(outDir, second, formatNamed);
        feed.poll(true);
        const view = feed.view();
        if (third === 'export' && parts.length === 3) {
          return send(response, 200, 'text/html; charset=utf-8', exportDocument(view, assets['style.css']), {
            'content-disposition': `attachment; filename="${second}.html"`,
          });
        }
        if (parts.length === 2) {
          const record = readStartRecord(outDir, second);
          return sendHtml(
            response,
            200,
            page(
              view.progress?.topic ?? second,
              runPage(view, record),
              isSimulated(view.events) || record?.args.includes('--simulated')
                ? { csrf, banner: SIMULATED_RUN_BANNER }
                : pageOptions,
            ),
          );
        }
      }
      if (isApi && second === 'runs' && parts.length === 2) {
        return sendJson(response, 200, (await filteredRuns(url)).runs);
      }
      if (isApi && second === 'runs' && third && parts.length === 3) {
        runDirOf(third);
        const feed = new RunFeed(outDir, third, formatNamed);
        feed.poll(true);
        const view = feed.view();
        return sendJson(response, 200, {
          runId: view.runId,
          progress: view.progress,
          live: view.live,
          events: view.events,
          spectators: view.spectators,
        });
      }
      if (isApi && second === 'runs' && third && fourth === 'stream' && parts.length === 4) {
        runDirOf(third);
        return streamRun(request, response, third);
      }
      if (isApi && second === 'models' && parts.length === 2) {
        const models = await provider().listModels();
        return sendJson(
          response,
          200,
          models.map((model) => model.name),
        );
      }
      if (isApi && second === 'leaderboard' && parts.length === 2) {
        const index = openIndex();
        try {
          return sendJson(response, 200, leaderboard(index, leaderboardOptions(url)));
        } finally {
          index.close();
        }
      }
      throw new HttpError(404, `nothing at ${url.pathname}`);
    }

    if (method !== 'POST') throw new HttpError(405, `${method} is not supported here`);
    const body = await readBody(request);
    checkSameOrigin(request, body);

    if (first === 'runs' && parts.length === 1) {
      // The HTML form: on an error the form comes back with it; on success, the run's page.
      const values = Object.fromEntries(
        Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
      try {
        const started = await startDebate(body);
        response.writeHead(303, { location: `/runs/${encodeURIComponent(started.runId)}` });
        response.end();
      } catch (error) {
        if (!(error instanceof AgoraError)) throw error;
        sendHtml(response, 400, await newRunForm(values, error.message));
      }
      return;
    }
    if (isApi && second === 'runs' && parts.length === 2) {
      try {
        const started = await startDebate(body);
        return sendJson(response, 202, { ...started, url: `/runs/${encodeURIComponent(started.runId)}` });
      } catch (error) {
        if (error instanceof AgoraError) throw new HttpError(400, error.message);
        throw error;
      }
    }
    if (isApi && second === 'runs' && third && parts.length === 4) {
      const runDir = runDirOf(third);
      if (fourth === 'stop') {
        const owner = lockOwner(runDir);
        if (owner === null) throw new HttpError(409, 'no process is running this debate; nothing to stop');
        requestStop(runDir);
        logger.info({ runId: third, owner }, 'stop requested');
        return sendJson(response, 202, { message: 'Stopping after the step in flight…' });
      }
      if (fourth === 'resume') {
        if (lockOwner(runDir) !== null) throw new HttpError(409, 'this debate is running already');
        const feed = new RunFeed(outDir, third, formatNamed);
        feed.poll(true);
        const view = feed.view();
        if (!view.progress)
          throw new HttpError(409, 'this debate never started, so there is nothing to resume');
        if (view.progress.status === 'completed' || view.progress.status === 'degraded')
          throw new HttpError(409, 'this debate is complete');
        const logFile = workerLogFile(outDir, third, 'resume');
        const args = [
          'resume',
          third,
          '--out',
          outDir,
          '--host',
          options.ollamaHost,
          '--quiet',
          ...simulatedFlag,
        ];
        const pid = options.launcher.launch(args, logFile);
        logger.info({ runId: third, pid }, 'debate resumed');
        return sendJson(response, 202, { message: `Resuming in process ${pid}…`, pid });
      }
      if (fourth === 'votes') {
        const feed = new RunFeed(outDir, third, formatNamed);
        feed.poll(true);
        const view = feed.view();
        const choices = spectatorChoices(view.scenario).map((choice) => choice.key);
        if (choices.length === 0) throw new HttpError(409, 'this format has no rounds to vote on');
        const round = body.round;
        if (
          typeof round !== 'number' ||
          !Number.isInteger(round) ||
          round < 1 ||
          round > currentRound(view)
        ) {
          throw new HttpError(
            400,
            `round must be a round of this debate so far (1 to ${currentRound(view)})`,
          );
        }
        if (typeof body.choice !== 'string' || !choices.includes(body.choice)) {
          throw new HttpError(400, `choice must be one of ${choices.join(', ')}`);
        }
        if (typeof body.voter !== 'string' || !/^[A-Za-z0-9-]{8,64}$/.test(body.voter)) {
          throw new HttpError(
            400,
            'voter must be the id the page keeps for you (8 to 64 letters, digits or dashes)',
          );
        }
        const vote = appendSpectatorVote(runDir, { round, choice: body.choice, voter: body.voter });
        return sendJson(response, 201, {
          message: `Your vote on round ${round} (${vote.choice}) is recorded. A later vote on the same round replaces it.`,
          vote,
        });
      }
    }
    throw new HttpError(404, `nothing at ${url.pathname}`);
  };

  /** Answers a request that failed; whatever goes wrong here, the process goes on serving. */
  const answerError = (request: IncomingMessage, response: ServerResponse, error: unknown) => {
    const status = error instanceof HttpError ? error.status : 500;
    const message =
      error instanceof HttpError || error instanceof AgoraError
        ? error.message
        : `unexpected error: ${(error as Error)?.message ?? String(error)}`;
    if (status >= 500) logger.error({ err: error, url: request.url }, 'request failed');
    try {
      if (response.headersSent) {
        response.end();
        return;
      }
      const wantsHtml = (request.headers.accept ?? '').includes('text/html');
      const title = status === 404 ? 'Not found' : 'Something went wrong';
      if (wantsHtml)
        sendHtml(
          response,
          status,
          page(status === 404 ? 'Not found' : 'Error', messagePage(title, message), pageOptions),
        );
      else sendJson(response, status, { error: message });
    } catch (failure) {
      logger.error({ err: failure, url: request.url }, 'could not answer a failed request');
      response.destroy();
    }
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    try {
      checkHost(request);
      const url = requestUrl(request);
      if (!checkAccess(request, url, response)) return;
      await routes(request, response, url);
    } catch (error) {
      answerError(request, response, error);
    }
  };

  const server = createServer((request, response) => {
    // A client that goes away mid-request must not become an unhandled 'error' event.
    request.on('error', (error) => logger.debug({ err: error }, 'request stream failed'));
    response.on('error', (error) => logger.debug({ err: error }, 'response stream failed'));
    handle(request, response).catch((error: unknown) => {
      logger.error({ err: error, url: request.url }, 'request handler failed');
      response.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4747, bind, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = bind.includes(':') ? `[${bind}]` : bind;
  return {
    url: `http://${shown}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
