/**
 * Debates against a real llama-server (a CPU build of llama.cpp with a tiny model whose text is
 * nonsense but whose protocol, token counts, slots and errors are real; see tests/helpers/
 * llama-server.ts), run as a user runs them: the scenario's `providers:` sends every model there.
 * The model has no end-of-turn token, so every free-text answer runs to its cap: the debates are
 * one round with small caps.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { OMITTED_MARKER } from '../../src/context/fit-window.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { FAST_RETRIES } from '../helpers/format-scenarios.js';
import {
  type LlamaServer,
  llamaServerDir,
  mustRunLlamaServerTests,
  startLlamaServer,
} from '../helpers/llama-server.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const servers: LlamaServer[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.stop();
});

async function serve(options: string[]): Promise<LlamaServer> {
  const server = await startLlamaServer(options);
  servers.push(server);
  return server;
}

/** Skipped, saying why in its name, where there is no server and CI is not set. */
const suite = describe.skipIf(!llamaServerDir && !mustRunLlamaServerTests);
const skipNote = llamaServerDir ? '' : ' (no real llama-server here: set LLAMA_SERVER_DIR to run these)';

/** A scenario file whose every model goes to `server`. */
function scenarioFile(data: Record<string, unknown>, server: LlamaServer, models: string[]) {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(
    file,
    stringify({
      reliability: { ...FAST_RETRIES, request_timeout_seconds: 600 },
      ...data,
      providers: { local: { type: 'openai', base_url: server.baseUrl, models } },
    }),
  );
  return { file, out: path.join(dir, 'runs'), cassette: path.join(dir, 'cassette') };
}

interface RecordedCall {
  status: number;
  request: { model: string; max_tokens: number; messages: Array<{ content: string }> };
}

/** The calls `--record` kept, in the order they were made. */
function recordedCalls(dir: string): RecordedCall[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as RecordedCall);
}

const FULL_CACHE = /ran out of the memory its slots share with (\d+) calls in flight/g;

suite(`slots that share one cache${skipNote}`, () => {
  it('a critique whose calls fill the shared cache sends them again, fewer at once, and never cuts a prompt or a cap', async () => {
    // Four slots sharing 6144 tokens: each slot's window is 6144 (as /props says), but four
    // critiques of about 2,100 tokens each at once do not fit the cache between them.
    const server = await serve(['-c', '6144', '--alias', 'llama3,mistral']);
    const scenario = scenarioFile(
      {
        format: 'critique',
        topic: 'Design a cache for product pages',
        seed: 3,
        agents: [
          { name: 'Ada', role: 'architect', model: 'llama3' },
          { name: 'Per', role: 'performance', model: 'mistral' },
          { name: 'Sol', role: 'security', model: 'llama3' },
        ],
        judge: { model: 'llama3' },
        rounds: 1,
        max_tokens: 300,
        judge_max_tokens: 400,
      },
      server,
      ['llama3', 'mistral'],
    );
    const run = await runAgora([
      'run',
      scenario.file,
      '--out',
      scenario.out,
      '--record',
      scenario.cassette,
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
    // Said once, on the terminal and in the run's log.
    const said = [...run.stderr.matchAll(FULL_CACHE)];
    expect(said, run.stderr).toHaveLength(1);
    expect(run.stderr).toMatch(/it is sent at most \d+ calls? at once for the rest of the run/);
    const runDir = onlyRunDir(scenario.out);
    expect(readFileSync(path.join(runDir, 'run.log'), 'utf8')).toMatch(FULL_CACHE);
    // Every call went whole, at its cap; a call the full cache stopped went again unchanged.
    const calls = recordedCalls(scenario.cassette);
    const prompts = calls.map((call) => JSON.stringify(call.request.messages));
    for (const call of calls) {
      expect(JSON.stringify(call.request.messages)).not.toContain(OMITTED_MARKER);
      expect(call.request.max_tokens).toBeGreaterThanOrEqual(300);
    }
    expect(new Set(prompts).size).toBeLessThan(prompts.length);
    // Every contribution was recorded, none degraded.
    const statements = readEvents(runDir).filter((event) => event.type === 'statement');
    expect(statements.some((event) => event.degraded === true)).toBe(false);
    expect(statements.filter((event) => event.phase === 'critique')).toHaveLength(6);
  });

  it('a duel on two slots sharing one cache completes whole', async () => {
    const server = await serve([
      '-c',
      '4096',
      '-np',
      '2',
      '--kv-unified',
      '--alias',
      'llama3,mistral,qwen2.5',
    ]);
    const scenario = scenarioFile(
      {
        format: 'duel',
        topic: 'Remote work is better than the office',
        seed: 5,
        debaters: { a: { name: 'Ada', model: 'llama3' }, b: { name: 'Blaise', model: 'mistral' } },
        judge: { name: 'Judge', model: 'qwen2.5' },
        max_rounds: 1,
        debater_max_tokens: 250,
        judge_max_tokens: 400,
        stop: { judge_early_stop: false },
      },
      server,
      ['llama3', 'mistral', 'qwen2.5'],
    );
    const run = await runAgora([
      'run',
      scenario.file,
      '--out',
      scenario.out,
      '--record',
      scenario.cassette,
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
    for (const call of recordedCalls(scenario.cassette)) {
      expect(call.status).toBe(200);
      expect(JSON.stringify(call.request.messages)).not.toContain(OMITTED_MARKER);
    }
    const events = readEvents(onlyRunDir(scenario.out));
    expect(events.filter((event) => event.type === 'statement')).toHaveLength(2);
    expect(events.find((event) => event.type === 'assessment')?.abstained).toBe(false);
  });
});
