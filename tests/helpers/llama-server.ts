/**
 * A real llama.cpp `llama-server` (a CPU build with a tiny model) for the end-to-end tests that run
 * the engine against it: found in the folder LLAMA_SERVER_DIR names, else `shared/real-llama-server`
 * beside the checkout (or beside the folder that holds it). Its `start.sh [PORT] [options]` prints
 * `{"port":N,"pid":P,"log":FILE}` once the server answers; it runs in its own process group, ended
 * by that group. In CI a missing server is a failure, not a skip, as a missing Chromium is for the
 * browser tests.
 *
 * A copy of the folder whose shared libraries lost their symbolic links (each link then a small
 * file holding its target's name, as some copies leave them) is started from a temporary folder in
 * which those links are made again; nothing is written to the server's own folder.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot, tempDir } from './cli.js';

const run = promisify(execFile);

const CANDIDATES = [
  process.env.LLAMA_SERVER_DIR,
  path.join(projectRoot, '..', 'shared', 'real-llama-server'),
  path.join(projectRoot, '..', '..', 'shared', 'real-llama-server'),
];

/** The folder holding start.sh, bin/llama-server and model/, or undefined when there is none. */
export const llamaServerDir = CANDIDATES.find(
  (dir): dir is string =>
    typeof dir === 'string' &&
    existsSync(path.join(dir, 'start.sh')) &&
    existsSync(path.join(dir, 'bin', 'llama-server')),
);

/** In CI the tests against the real server must run. */
export const mustRunLlamaServerTests = Boolean(process.env.CI);

export interface LlamaServer {
  port: number;
  /** The OpenAI-compatible API's base URL (`http://127.0.0.1:PORT/v1`). */
  baseUrl: string;
  log: string;
  stop(): void;
}

/** A file of a few bytes that names another file of the folder: a symbolic link a copy flattened. */
function flattenedLink(dir: string, name: string): string | undefined {
  const file = path.join(dir, name);
  if (statSync(file).size > 256) return undefined;
  const target = readFileSync(file, 'utf8').trim();
  return target !== name && existsSync(path.join(dir, target)) ? target : undefined;
}

/** The server's folder, or a temporary one whose bin/ has its links made again when a copy flattened them. */
function runnableDir(dir: string): string {
  const bin = path.join(dir, 'bin');
  const names = readdirSync(bin);
  if (!names.some((name) => flattenedLink(bin, name) !== undefined)) return dir;
  const copy = tempDir('agora-llama-server-');
  mkdirSync(path.join(copy, 'bin'));
  for (const name of names) {
    symlinkSync(flattenedLink(bin, name) ?? path.join(bin, name), path.join(copy, 'bin', name));
  }
  symlinkSync(path.join(dir, 'model'), path.join(copy, 'model'));
  symlinkSync(path.join(dir, 'start.sh'), path.join(copy, 'start.sh'));
  return copy;
}

/** Starts the server with llama-server `options` (e.g. `-c 4096`, `--alias llama3,mistral`). */
export async function startLlamaServer(options: string[]): Promise<LlamaServer> {
  if (!llamaServerDir) {
    throw new Error(
      'no real llama-server: set LLAMA_SERVER_DIR to the folder that holds its start.sh, bin/ and model/',
    );
  }
  const dir = runnableDir(llamaServerDir);
  // start.sh resolves its own folder from its path, so the copy's bin/ is the one it starts.
  const started = await run('bash', [path.join(dir, 'start.sh'), '0', ...options], {
    cwd: dir,
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}` },
  });
  const line = started.stdout.trim().split('\n').at(-1) ?? '';
  const { port, pid, log } = JSON.parse(line) as { port: number; pid: number; log: string };
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    log,
    stop: () => {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    },
  };
}
