/** Mock Ollama servers for a test file, closed after each test. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import {
  type MockOllama,
  type ScriptMatch,
  type ScriptRule,
  startMockOllama,
} from '../../src/mock-ollama/index.js';
import { onlyRunDir } from './transcripts.js';

export interface MockOptions {
  script?: ScriptRule[];
  /** Real waiting per simulated second; 0 answers at once (instant profile). */
  speed?: number;
  models?: string[];
  /** Port to listen on; default an ephemeral one. */
  port?: number;
}

/**
 * A script rule: the calls that match answer a minute late (every one, or the first `times`). A run
 * stopped after the step in flight (Ctrl-C, `agora stop`, the viewer's Stop) waits for that call, so
 * a call that never answered would hold it for ever; with this one it is still going when the stop
 * comes unless the stop is a minute late, and it still ends by itself.
 */
export function answerLate(match: ScriptMatch, times?: number): ScriptRule {
  return { match, ...(times === undefined ? {} : { times }), latencyMs: 60_000 };
}

/** Registers the cleanup and returns a starter: `const mock = useMockServers(); await mock({...})`. */
export function useMockServers(defaults: MockOptions = {}) {
  const servers: MockOllama[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (options: MockOptions = {}) => {
    const speed = options.speed ?? defaults.speed ?? 0;
    const server = await startMockOllama({
      models: options.models ?? defaults.models ?? ['llama3', 'mistral', 'qwen2.5'],
      profile: speed ? 'gpu' : 'instant',
      speed,
      script: options.script ?? defaults.script ?? [],
      ...(options.port === undefined ? {} : { port: options.port }),
    });
    servers.push(server);
    return server;
  };
}

/** Waits until the only run under `out` has at least `count` events in its log. */
export async function waitForEvents(out: string, count: number, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const lines = readFileSync(path.join(onlyRunDir(out), 'events.jsonl'), 'utf8').split('\n').length - 1;
      if (lines >= count) return;
    } catch {
      // The run folder does not exist yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} events after ${timeoutMs} ms`);
}
