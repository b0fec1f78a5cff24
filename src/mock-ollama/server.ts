/**
 * The HTTP server: routing for the Ollama endpoints, request recording, and lifecycle.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CassettePlayer } from './cassette-player.js';
import { Catalog, DEFAULT_MODELS, detailsOf } from './catalog.js';
import { GpuClock } from './gpu-clock.js';
import { readBody, sendError, sendJson, sendText } from './http.js';
import { sendOpenAiError } from './openai-api.js';
import { flavourOf, openAiModelId, openAiModels, openAiProps } from './openai-models.js';
import { resolveProfile } from './profiles.js';
import { Scheduler } from './scheduler.js';
import { ScriptBook } from './script.js';
import { parseMockScript } from './script-file.js';
import { type CompletionState, serveCompletion } from './serve-completion.js';
import { StatsBook } from './stats.js';
import { TemplateChoice } from './template-choice.js';
import { tokenId, tokenizerOf } from './tokens.js';
import type { MockOllama, MockOllamaOptions, RecordedRequest } from './types.js';

const VERSION = '0.6.0-mock';
// Far enough ahead to read as "never" for keep_alive < 0, like Ollama's own output.
const NEVER = Date.UTC(2300, 0, 1);

interface ServerState extends CompletionState {
  closing: AbortSignal;
  /** Set when the server plays a cassette instead of simulating answers. */
  cassette?: CassettePlayer;
}

/** A chat request answered from the cassette. */
async function serveCassette(
  player: CassettePlayer,
  api: 'ollama' | 'openai',
  body: unknown,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  const call = player.take(api, body);
  if ('error' in call) return CassettePlayer.refuse(api, res, call.error);
  await player.play(call, res, signal);
}

function listModels(state: ServerState): object {
  const models = state.scheduler.loadedModels().flatMap((loaded) => {
    const entry = state.catalog.find(loaded.name);
    if (entry === undefined) return [];
    return [
      {
        name: entry.name,
        model: entry.name,
        size: entry.sizeBytes,
        digest: entry.digest,
        details: detailsOf(entry),
        expires_at: new Date(Number.isFinite(loaded.expiresAt) ? loaded.expiresAt : NEVER).toISOString(),
        // A CPU machine keeps weights in system memory, so nothing is reported in VRAM.
        size_vram: state.profile.name.endsWith('cpu') ? 0 : entry.sizeBytes,
      },
    ];
  });
  return { models };
}

function showModel(state: ServerState, body: unknown, res: ServerResponse): void {
  const fields = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const name = typeof fields.model === 'string' ? fields.model : fields.name;
  if (typeof name !== 'string' || name === '') {
    sendError(res, 400, 'model is required');
    return;
  }
  const entry = state.catalog.find(name);
  if (entry === undefined) sendError(res, 404, `model '${name}' not found`);
  else sendJson(res, 200, state.catalog.show(entry));
}

async function route(state: ServerState, req: IncomingMessage, res: ServerResponse, record: RecordedRequest) {
  const { method, path } = record;
  const text = await readBody(req);
  let body: unknown;
  let parseError: string | undefined;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch (error) {
      parseError = (error as Error).message;
    }
  }
  record.body = body;
  const signal = AbortSignal.any([state.closing, requestSignal(res)]);

  if ((method === 'GET' || method === 'HEAD') && path === '/') {
    return sendText(res, 200, 'Ollama is running', method === 'HEAD');
  }
  if (method === 'GET' && path === '/api/version') return sendJson(res, 200, { version: VERSION });
  if (method === 'GET' && path === '/api/tags') return sendJson(res, 200, state.catalog.tags());
  if (method === 'GET' && path === '/api/ps') return sendJson(res, 200, listModels(state));
  // The OpenAI-compatible API of llama-server, vLLM and the like, beside Ollama's own.
  if (method === 'GET' && path === '/v1/models') {
    return sendJson(res, 200, openAiModels(state.catalog, state.openAiContextLength, state.settings.openAi));
  }
  if (method === 'GET' && path === '/props' && flavourOf(state.settings.openAi) === 'llama-server') {
    return sendJson(res, 200, openAiProps(state.catalog, state.openAiContextLength, state.profile.parallel));
  }
  // llama-server's own tokenizer: the token ids of `content` in the served model's vocabulary.
  if (method === 'POST' && path === '/tokenize' && flavourOf(state.settings.openAi) === 'llama-server') {
    return serveTokenize(state, body, res);
  }
  if (method === 'POST' && path === '/v1/chat/completions') {
    if (parseError !== undefined) return sendOpenAiError(res, 400, `invalid JSON body: ${parseError}`);
    if (state.cassette) return serveCassette(state.cassette, 'openai', body, res, signal);
    return serveCompletion(state, 'chat', body, res, record, signal, 'openai');
  }
  const endpoint = path === '/api/chat' ? 'chat' : path === '/api/generate' ? 'generate' : undefined;
  if (method === 'POST' && (endpoint !== undefined || path === '/api/show')) {
    if (parseError !== undefined) return sendError(res, 400, `invalid JSON body: ${parseError}`);
    if (body === undefined) return sendError(res, 400, 'missing request body');
    if (endpoint === undefined) return showModel(state, body, res);
    if (state.cassette && endpoint === 'chat')
      return serveCassette(state.cassette, 'ollama', body, res, signal);
    return serveCompletion(state, endpoint, body, res, record, signal);
  }
  sendText(res, 404, '404 page not found');
}

function serveTokenize(state: ServerState, body: unknown, res: ServerResponse): void {
  const content = (body as { content?: unknown } | undefined)?.content;
  if (typeof content !== 'string') {
    sendOpenAiError(res, 400, '"content" must be provided');
    return;
  }
  // The model the request names (as vLLM's tokenizer takes one), else the one llama-server serves.
  const named = (body as { model?: unknown }).model;
  const entry =
    (typeof named === 'string' ? state.catalog.find(named) : undefined) ?? state.catalog.list()[0];
  const vocabularies = state.settings.vocabularies;
  const tokenize = tokenizerOf(
    entry === undefined ? undefined : (vocabularies?.[entry.name] ?? vocabularies?.[openAiModelId(entry)]),
  );
  sendJson(res, 200, { tokens: tokenize(content).map(tokenId) });
}

/** A signal that aborts when the client goes away before the response is complete. */
function requestSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** Starts a mock Ollama server; resolves once it is listening. */
export async function startMockOllama(options: MockOllamaOptions = {}): Promise<MockOllama> {
  const profile = resolveProfile(options.profile);
  const speed = options.speed ?? 0;
  if (!(Number.isFinite(speed) && speed >= 0)) {
    throw new Error(`mock speed must be a number >= 0, got ${speed}`);
  }
  const speech = options.speechLength;
  if (
    speech !== undefined &&
    !(
      Number.isInteger(speech.minWords) &&
      Number.isInteger(speech.maxWords) &&
      speech.minWords >= 1 &&
      speech.maxWords >= speech.minWords
    )
  ) {
    throw new Error(
      `mock speechLength must have whole minWords >= 1 and maxWords >= minWords, got ${JSON.stringify(speech)}`,
    );
  }
  const quoteErrors = options.quoteErrors;
  if (quoteErrors !== undefined && !(quoteErrors >= 0 && quoteErrors <= 1)) {
    throw new Error(`mock quoteErrors must be a share between 0 and 1, got ${quoteErrors}`);
  }
  const templates = new TemplateChoice(options.templates);
  const stats = new StatsBook();
  const gpu = new GpuClock(profile, speed * 1000);
  const closing = new AbortController();
  const cassette = options.cassette ? new CassettePlayer(options.cassette) : undefined;
  // A cassette's server has its models, so a replayed run passes the same model checks.
  const models = cassette ? [...new Set([...cassette.models(), ...(options.models ?? [])])] : options.models;
  const state: ServerState = {
    catalog: new Catalog(models ?? DEFAULT_MODELS),
    script: new ScriptBook(parseMockScript(options.script ?? [], 'options.script')),
    scheduler: new Scheduler(profile, speed, (model, readyAt) => {
      stats.load(model);
      gpu.noteLoad(readyAt);
    }),
    gpu,
    stats,
    profile,
    speed,
    ...(options.contextLength === undefined ? {} : { openAiContextLength: options.contextLength }),
    settings: {
      ...(options.openAi ? { openAi: options.openAi } : {}),
      ...(options.vocabularies ? { vocabularies: options.vocabularies } : {}),
      ...(options.unboundedStrings ? { unboundedStrings: options.unboundedStrings } : {}),
      ...(options.quoteErrors === undefined ? {} : { quoteErrors: options.quoteErrors }),
    },
    templates,
    ...(speech === undefined ? {} : { speech }),
    closing: closing.signal,
    ...(cassette ? { cassette } : {}),
  };
  const requests: RecordedRequest[] = [];
  const keeping = options.keepRequests ?? Number.POSITIVE_INFINITY;
  const keep = (record: RecordedRequest) => {
    if (keeping <= 0) return;
    requests.push(record);
    if (requests.length > keeping) requests.splice(0, requests.length - keeping);
  };

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://mock.invalid').pathname;
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      body: undefined,
      receivedAt: Date.now(),
      ...(req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }),
    };
    keep(record);
    stats.request(path);
    const settle = (): void => {
      if (res.headersSent && record.status === undefined) record.status = res.statusCode;
    };
    res.once('finish', settle);
    res.once('close', () => {
      settle();
      record.finishedAt ??= Date.now();
    });
    route(state, req, res, record)
      .then(settle)
      .catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else sendError(res, 500, `mock server error: ${(error as Error).message}`);
      });
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    requests,
    stats: () => {
      const decode = gpu.decodeSteps();
      return {
        ...stats.snapshot(),
        gpuBusySeconds: gpu.busySeconds(),
        gpuDecodeSteps: decode.steps,
        gpuDecodedTokens: decode.tokens,
      };
    },
    resetStats: () => {
      stats.reset();
      gpu.reset();
    },
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        // Abort pacing timers and queued requests first, then drop every connection, hanging ones included.
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
