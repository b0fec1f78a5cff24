/**
 * Host names as a request gives them, read without trusting them. A viewer on loopback answers only
 * to loopback names: a page whose own name an attacker rebinds to 127.0.0.1 sends that name as its
 * Host, and a prefix test (`127.evil.com`, `127.0.0.1.nip.io`) would let it read pages and vote.
 */
import { isIPv4 } from 'node:net';

/** A Host header's parts; `hostname` is lower-case and has no brackets. */
export interface RequestHost {
  hostname: string;
  port: number | null;
}

// A name, a dotted address or a bracketed IPv6 address, then an optional port: nothing else.
const HOST_PATTERN = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::(\d{1,5}))?$/i;

/** Parses `name`, `name:port`, `[v6]` or `[v6]:port`; null for anything else. */
export function parseHost(value: string): RequestHost | null {
  const match = HOST_PATTERN.exec(value);
  if (!match) return null;
  const port = match[3] === undefined ? null : Number(match[3]);
  if (port !== null && port > 65535) return null;
  return { hostname: (match[1] ?? match[2] ?? '').toLowerCase(), port };
}

/** Loopback by exact name or literal address only: `localhost`, `::1` and dotted `127.x.y.z`. */
export function isLoopback(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return name === 'localhost' || name === '::1' || (isIPv4(name) && name.startsWith('127.'));
}

/** The host part of an `http://host[:port]` origin, or null when it is not one. */
export function originHost(origin: string): RequestHost | null {
  const rest = /^http:\/\/(.+)$/i.exec(origin)?.[1];
  return rest === undefined ? null : parseHost(rest);
}
