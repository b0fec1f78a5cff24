/**
 * Records chat calls into a cassette folder as they happen (`--record`). Calls are numbered when
 * they are sent and written when they end, so concurrent calls keep their order of sending. The
 * recorder sees bodies and answers, never headers; secrets it is told of (API keys) are replaced
 * anyway, should a server echo one back in an error.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CASSETTE_VERSION, type CassetteCall, callFileText, usageOf } from './cassette-format.js';

/** The recording side of one call (matches the chat tap the model adapters call). */
export interface RecordedCall {
  status(code: number): void;
  chunk(data: string | Uint8Array): void;
  end(failure?: string): void;
}

export class CassetteRecorder {
  private calls = 0;
  private readonly secrets: string[] = [];
  /** The first file that could not be written; the run goes on, and the caller reports it after. */
  writeError: Error | undefined;

  /** `dir` must exist; the caller checks it is empty. */
  constructor(readonly dir: string) {}

  /** Keeps `secret` out of every file, whatever a server sends back. */
  hide(secret: string): void {
    if (secret !== '') this.secrets.push(secret);
  }

  /** How many calls were recorded so far. */
  get count(): number {
    return this.calls;
  }

  begin(api: 'ollama' | 'openai', body: string): RecordedCall {
    this.calls += 1;
    const number = this.calls;
    const started = performance.now();
    let request: Record<string, unknown>;
    try {
      request = JSON.parse(body) as Record<string, unknown>;
    } catch {
      request = { unparsed: body };
    }
    let status: number | undefined;
    const chunks: Array<{ ms: number; text: string }> = [];
    const decoder = new TextDecoder();
    const since = () => Math.round((performance.now() - started) * 10) / 10;
    return {
      status: (code) => {
        status = code;
      },
      chunk: (data) => {
        // Bytes are decoded across pieces, so a character split between two pieces stays whole.
        const text = typeof data === 'string' ? data : decoder.decode(data, { stream: true });
        if (text !== '') chunks.push({ ms: since(), text });
      },
      end: (failure) => {
        const rest = decoder.decode();
        if (rest !== '') chunks.push({ ms: since(), text: rest });
        const usage = status === 200 ? usageOf(api, chunks.map((chunk) => chunk.text).join('')) : undefined;
        const call: CassetteCall = {
          cassette: CASSETTE_VERSION,
          call: number,
          api,
          request,
          ...(status === undefined ? {} : { status }),
          chunks,
          ...(usage ? { usage } : {}),
          ...(failure === undefined ? {} : { failure }),
          ms: since(),
        };
        this.write(call);
      },
    };
  }

  private write(call: CassetteCall): void {
    let text = callFileText(call);
    for (const secret of this.secrets) text = text.split(secret).join('[redacted]');
    try {
      writeFileSync(path.join(this.dir, `${String(call.call).padStart(4, '0')}.json`), text);
    } catch (error) {
      this.writeError ??= error as Error;
    }
  }
}
