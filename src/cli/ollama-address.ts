/** The Ollama address a command uses, with the one common mistake in it corrected out loud. */
import { resolveOllamaHost } from '../llm/ollama-host.js';
import type { CliIo } from './io.js';

/**
 * Picks the address like `resolveOllamaHost`. An address ending in `/api` (copied from an API
 * example) would make every request go to /api/api/...: the suffix is dropped, with a warning.
 */
export function ollamaHostFor(
  sources: { flag?: string; scenario?: string; env?: string },
  io: CliIo,
): string {
  return withoutApiSuffix(resolveOllamaHost(sources), io);
}

/** `http://host:port/api` as `http://host:port`, saying so on stderr. */
export function withoutApiSuffix(host: string, io: CliIo): string {
  if (!/\/api$/i.test(host)) return host;
  const trimmed = host.replace(/\/api$/i, '');
  io.stderr.write(
    `warning: the Ollama address ${host} ends in /api, which Agora adds itself; using ${trimmed}\n`,
  );
  return trimmed;
}
