/**
 * Serves a cassette back. Each chat request is answered with a recorded call: by default the first
 * unused call whose request matches (so concurrent calls may arrive in any order), and a request
 * that matches none gets HTTP 400 naming the next unused call and the first difference; with order
 * `any`, simply the next call. The answer is replayed as recorded (status, raw pieces), either at
 * the recorded times or at once.
 */
import type { ServerResponse } from 'node:http';
import { type CassetteCall, loadCassette } from './cassette-format.js';
import { requestDifference } from './cassette-match.js';
import { sendError, sleep, writeFlushed } from './http.js';
import { sendOpenAiError } from './openai-api.js';

/** How a cassette is served. */
export interface CassetteOptions {
  /** The cassette folder. */
  dir: string;
  /** `match` (default): a request must match a recorded one; `any`: the next call, whatever was asked. */
  order?: 'match' | 'any';
  /** `fast` (default): every piece at once; `recorded`: each piece at its recorded time. */
  speed?: 'recorded' | 'fast';
}

const CONTENT_TYPE: Record<CassetteCall['api'], string> = {
  ollama: 'application/x-ndjson',
  openai: 'text/event-stream',
};

export class CassettePlayer {
  private readonly calls: CassetteCall[];
  private readonly used: boolean[];
  private readonly order: 'match' | 'any';
  private readonly speed: 'recorded' | 'fast';

  constructor(options: CassetteOptions) {
    this.calls = loadCassette(options.dir);
    this.used = this.calls.map(() => false);
    this.order = options.order ?? 'match';
    this.speed = options.speed ?? 'fast';
  }

  /** Every model the cassette's requests name, for the simulator's model list. */
  models(): string[] {
    return [...new Set(this.calls.map((call) => String(call.request.model)))];
  }

  /** The call that answers this request, or why none does. */
  take(api: CassetteCall['api'], body: unknown): CassetteCall | { error: string } {
    const next = this.used.indexOf(false);
    const nextCall = this.calls[next];
    if (nextCall === undefined) {
      return {
        error: `cassette: all ${this.calls.length} recorded calls were served; this request (model ${String((body as { model?: unknown } | undefined)?.model)}) was not recorded`,
      };
    }
    let index = next;
    if (this.order === 'match') {
      index = this.calls.findIndex(
        (call, at) => !this.used[at] && requestDifference(call, api, body) === undefined,
      );
      if (index === -1) {
        // Compared with the next call for the same model, which is most likely the one meant.
        const model = (body as { model?: unknown } | undefined)?.model;
        const meant =
          this.calls.find((call, at) => !this.used[at] && call.api === api && call.request.model === model) ??
          nextCall;
        const difference = requestDifference(meant, api, body);
        return {
          error: `cassette call ${meant.call} does not match this request: ${difference}. Record the cassette again if the change is intended, or serve it with --cassette-order any`,
        };
      }
    }
    this.used[index] = true;
    return this.calls[index] as CassetteCall;
  }

  /** Answers `res` with `call`; resolves when done or when the client went away. */
  async play(call: CassetteCall, res: ServerResponse, signal: AbortSignal): Promise<void> {
    if (call.status === undefined) {
      // The server was never reached when this was recorded: a refused or dropped connection.
      res.destroy();
      return;
    }
    const started = Date.now();
    const ok = call.status >= 200 && call.status < 300;
    res.writeHead(call.status, {
      'Content-Type': ok ? CONTENT_TYPE[call.api] : 'application/json; charset=utf-8',
    });
    for (const chunk of call.chunks) {
      if (this.speed === 'recorded' && !(await sleep(started + chunk.ms - Date.now(), signal))) return;
      await writeFlushed(res, chunk.text);
    }
    // A call that broke off when recorded breaks off again, after what had arrived.
    if (call.failure !== undefined && ok) res.destroy();
    else res.end();
  }

  /** Refuses a request that matches nothing, in the API's own error shape. */
  static refuse(api: CassetteCall['api'], res: ServerResponse, message: string): void {
    if (api === 'openai') sendOpenAiError(res, 400, message);
    else sendError(res, 400, message);
  }
}
