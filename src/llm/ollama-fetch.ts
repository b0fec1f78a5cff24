/**
 * The `fetch` handed to the ollama client. The client has no timeouts of its own, and Node's
 * built-in fetch gives up after 300 s without headers or between body chunks, which a CPU prefill
 * of a long prompt can exceed. So requests go through undici with those timeouts off and are
 * bounded instead by the caller's AbortSignal (which carries Agora's own per-request timeout).
 * NDJSON lines that are not JSON become `{"error": ...}` lines, so a malformed stream fails loudly
 * instead of being skipped.
 */
import { Agent, fetch as undiciFetch } from 'undici';

const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 10_000 });

export type FetchFunction = typeof globalThis.fetch;

/** A fetch that also aborts when `signal` does. */
export function createOllamaFetch(signal: AbortSignal | undefined): FetchFunction {
  const wrapped = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const signals = [init.signal, signal].filter((item): item is AbortSignal => item != null);
    const combined =
      signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
    const response = (await undiciFetch(input as string, {
      ...(init as Record<string, unknown>),
      signal: combined,
      dispatcher,
    })) as unknown as Response;
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !response.body || !type.includes('ndjson')) return response;
    return new Response(response.body.pipeThrough(guardNdjsonLines()), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
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
