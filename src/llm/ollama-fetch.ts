/**
 * The `fetch` handed to the ollama client. The client has no timeouts of its own, and Node's
 * built-in fetch gives up after 300 s without headers or between body chunks, which a CPU prefill
 * of a long prompt can exceed. So requests go through undici with those timeouts off and are
 * bounded instead by the caller's AbortSignal (which carries Agora's own per-request timeout).
 * They go through undici's `request`, not its `fetch`: the fetch standard refuses some ports
 * outright ("bad port": 6000, 6665-6669, 10080 and others kept from browsers for old protocols),
 * and an Ollama may well listen on one of them; the chat stream already goes this way.
 * NDJSON lines that are not JSON become `{"error": ...}` lines, so a malformed stream fails loudly
 * instead of being skipped.
 */
import { Readable } from 'node:stream';
import { Agent, type Dispatcher, request } from 'undici';

const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 10_000 });

export type FetchFunction = typeof globalThis.fetch;

/** The answer's headers as a `Headers` object (undici gives a record of strings and lists). */
function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/** A fetch that also aborts when `signal` does. */
export function createOllamaFetch(signal: AbortSignal | undefined): FetchFunction {
  const wrapped = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const signals = [init.signal, signal].filter((item): item is AbortSignal => item != null);
    const combined =
      signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod;
    const answer = await request(url, {
      method,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      // The ollama client sends JSON text as its body.
      body: typeof init.body === 'string' ? init.body : null,
      ...(combined ? { signal: combined } : {}),
      dispatcher,
    });
    const headers = headersOf(answer.headers);
    const empty = method === 'HEAD' || answer.statusCode === 204 || answer.statusCode === 304;
    if (empty) answer.body.resume();
    const body = empty ? null : (Readable.toWeb(answer.body) as ReadableStream<Uint8Array>);
    const ok = answer.statusCode >= 200 && answer.statusCode < 300;
    const type = headers.get('content-type') ?? '';
    const piped = ok && body && type.includes('ndjson') ? body.pipeThrough(guardNdjsonLines()) : body;
    return new Response(piped, { status: answer.statusCode, headers });
  };
  return wrapped as FetchFunction;
}

function guardNdjsonLines(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  const check = (line: string): string => {
    if (line.trim() === '') return '';
    try {
      JSON.parse(line);
      return `${line}\n`;
    } catch {
      return `${JSON.stringify({ error: `malformed line in Ollama's stream: ${line.slice(0, 80)}` })}\n`;
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      const out = lines.map(check).join('');
      if (out !== '') controller.enqueue(encoder.encode(out));
    },
    flush(controller) {
      pending += decoder.decode();
      const out = check(pending);
      if (out !== '') controller.enqueue(encoder.encode(out));
    },
  });
}
