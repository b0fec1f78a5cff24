/**
 * Serves a cassette back, for as many runs as ask. Each chat request is answered with a recorded
 * call: by default, of the calls whose request matches, the one served the fewest times so far
 * (the earliest on a tie), so concurrent calls may arrive in any order, identical requests within
 * one run (a retry after a recorded failure) get their recordings in turn, and every later run that
 * sends the same requests gets the same answers. A request that matches none gets HTTP 400 naming
 * the recorded call it most likely meant and the first difference. With order `any`, the calls are
 * served in recorded order, starting again after the last. The answer is replayed as recorded
 * (status, raw pieces), either at the recorded times or at once.
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
  /** How many times each call has been served. */
  private readonly served: number[];
  /** Calls handed out in order `any`, over every run. */
  private handedOut = 0;
  private readonly order: 'match' | 'any';
  private readonly speed: 'recorded' | 'fast';

  constructor(options: CassetteOptions) {
    this.calls = loadCassette(options.dir);
    this.served = this.calls.map(() => 0);
    this.order = options.order ?? 'match';
    this.speed = options.speed ?? 'fast';
  }

  /** Every model the cassette's requests name, for the simulator's model list. */
  models(): string[] {
    return [...new Set(this.calls.map((call) => String(call.request.model)))];
  }

  /** The call that answers this request, or why none does. */
  take(api: CassetteCall['api'], body: unknown): CassetteCall | { error: string } {
    let index: number;
    if (this.order === 'any') {
      index = this.handedOut % this.calls.length;
      this.handedOut += 1;
    } else {
      index = this.leastServed((call) => requestDifference(call, api, body) === undefined);
      if (index === -1) {
        // Compared with the call for the same model that is due next, which is most likely the one meant.
        const model = (body as { model?: unknown } | undefined)?.model;
        const sameModel = this.leastServed((call) => call.api === api && call.request.model === model);
        const meant = this.calls[sameModel === -1 ? this.leastServed(() => true) : sameModel] as CassetteCall;
        const difference = requestDifference(meant, api, body);
        return {
          error: `cassette call ${meant.call} does not match this request: ${difference}. Record the cassette again if the change is intended, or serve it with --cassette-order any`,
        };
      }
    }
    this.served[index] = (this.served[index] ?? 0) + 1;
    return this.calls[index] as CassetteCall;
  }

  /** Of the calls that pass `test`, the one served the fewest times (the earliest on a tie); -1 for none. */
  private leastServed(test: (call: CassetteCall) => boolean): number {
    let best = -1;
    this.calls.forEach((call, at) => {
      if ((best === -1 || (this.served[at] ?? 0) < (this.served[best] ?? 0)) && test(call)) best = at;
    });
    return best;
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
