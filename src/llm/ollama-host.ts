/** Ollama addresses in the forms Ollama itself accepts: `host`, `host:port`, `:port`, `http://host:port`. */

export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
const DEFAULT_PORT = '11434';

/** Normalises an address to `scheme://host:port` (no trailing slash); throws TypeError when unusable. */
export function normalizeOllamaHost(raw: string): string {
  let text = raw.trim();
  if (text === '') return DEFAULT_OLLAMA_HOST;
  const explicitScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  if (text.startsWith(':')) text = `127.0.0.1${text}`;
  if (!explicitScheme) text = `http://${text}`;
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`unsupported scheme "${url.protocol}" (use http:// or https://)`);
  }
  // Ollama listens on all interfaces when told 0.0.0.0; a client must connect to a real address.
  const hostname = url.hostname === '0.0.0.0' ? '127.0.0.1' : url.hostname;
  const port = url.port || (explicitScheme ? (url.protocol === 'https:' ? '443' : '80') : DEFAULT_PORT);
  const pathname = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${hostname}:${port}${pathname}`;
}

/** Picks the host: explicit flag, then the scenario, then `OLLAMA_HOST`, then the default. */
export function resolveOllamaHost(sources: { flag?: string; scenario?: string; env?: string }): string {
  const chosen = [sources.flag, sources.scenario, sources.env].find(
    (value) => value !== undefined && value.trim() !== '',
  );
  return normalizeOllamaHost(chosen ?? DEFAULT_OLLAMA_HOST);
}
