/**
 * Debates against a real llama-server (a CPU build of llama.cpp with a tiny model whose text is
 * nonsense but whose protocol, token counts, slots and errors are real; see tests/helpers/
 * llama-server.ts), run as a user runs them: the scenario's `providers:` sends every model there.
 * The model has no end-of-turn token, so every free-text answer runs to its cap: the debates are
 * one round with small caps.
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { OMITTED_MARKER } from '../../src/context/fit-window.js';
import { projectRoot, runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { FAST_RETRIES } from '../helpers/format-scenarios.js';
import {
  type LlamaServer,
  llamaServerDir,
  mustRunLlamaServerTests,
  startLlamaServer,
} from '../helpers/llama-server.js';
import { waitForEvents } from '../helpers/mock-servers.js';
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

/** Every model name a shipped scenario uses (the server answers to any name). */
const SHIPPED_MODELS = ['llama3', 'mistral', 'qwen2.5', 'qwen2.5-7b-instruct'];

/** The shipped scenarios, copied with their context and prompt files, every model sent to `server`. */
function shippedScenarios(server: LlamaServer): string[] {
  const dir = path.join(tempDir(), 'scenarios');
  cpSync(path.join(projectRoot, 'scenarios'), dir, { recursive: true });
  const files = readdirSync(dir).filter((name) => name.endsWith('.yaml'));
  for (const name of files) {
    const file = path.join(dir, name);
    const data = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    data.providers = { local: { type: 'openai', base_url: server.baseUrl, models: SHIPPED_MODELS } };
    writeFileSync(file, stringify(data));
  }
  return files.map((name) => path.join(dir, name));
}

/**
 * What `run` makes of a scenario before its first model call: refused (its exit code and the
 * message), or started (its run-start event written, when it is stopped).
 */
async function runVerdict(file: string): Promise<{ code: number | null; stderr: string }> {
  const out = path.join(path.dirname(file), 'runs', path.basename(file, '.yaml'));
  const { child, result } = startAgora(['run', file, '--out', out, '--quiet']);
  const started = waitForEvents(out, 1).then(() => 'started' as const);
  const first = await Promise.race([result, started.catch(() => 'exited' as const)]);
  if (first === 'started') {
    child.kill('SIGKILL');
    await result;
    return { code: 0, stderr: '' };
  }
  const ended = await result;
  return { code: ended.code, stderr: ended.stderr };
}

suite(`doctor against a real llama-server${skipNote}`, () => {
  it('measures a truth scenario’s rate on its own prompts and checks each of its calls', async () => {
    const server = await serve(['-c', '4096', '-np', '1']);
    const scenario = scenarioFile(
      {
        format: 'truth',
        seed: 3,
        questions: 2,
        max_rounds: 1,
        debaters: { a: { model: 'llama3' }, b: { model: 'mistral' } },
        judge: { model: 'qwen2.5' },
      },
      server,
      ['llama3', 'mistral', 'qwen2.5'],
    );
    const doctor = await runAgora(['doctor', scenario.file]);
    expect(doctor.code, doctor.stdout).toBe(0);
    const rates = [
      ...doctor.stdout.matchAll(
        /(\w[\w.]*): (\d+\.\d+) characters per token \((\d+) characters, \d+ tokens, by the server's tokenizer\)/g,
      ),
    ];
    expect(rates.map((match) => match[1]).sort()).toEqual(['llama3', 'mistral', 'qwen2.5']);
    for (const match of rates) {
      // The tiny model reads about 1.5 characters a token, on a few hundred characters of its prompts.
      expect(Number(match[2])).toBeGreaterThan(1.2);
      expect(Number(match[2])).toBeLessThan(2);
      expect(Number(match[3])).toBeGreaterThan(300);
    }
    for (const call of [
      "Debater A's debate statement",
      "Judge's question to the consultant",
      "Judge's verdict (debate)",
    ]) {
      expect(doctor.stdout).toMatch(new RegExp(`✓ ${call.replace(/[()]/g, '\\$&')}: about \\d+ tokens`));
    }
  });

  it('refuses a knockout whose round cannot fit the slot at the measured rate, naming the call, as run does before its first call', async () => {
    // One slot of 8192 tokens: each call's fixed part fits, but once the first round is folded
    // into a summary, a call of the second round with its statements at their caps (at about 1.5
    // characters a token) still does not.
    const server = await serve(['-c', '8192', '-np', '1']);
    const abortion = shippedScenarios(server).find((file) => file.endsWith('abortion.yaml')) as string;
    const doctor = await runAgora(['doctor', abortion]);
    expect(doctor.code, doctor.stdout).toBe(3);
    const refusal =
      /✗ (the context window is too small: one round does not fit in 8192 tokens: the prompt for (.+?), with the finished rounds summarised and this round's statements whole, comes to about \d+ tokens.*)/.exec(
        doctor.stdout,
      );
    expect(refusal, doctor.stdout).not.toBeNull();
    const run = await runVerdict(abortion);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(refusal?.[1]);
    // Refused before its first call: no run folder was made.
    expect(existsSync(path.join(path.dirname(abortion), 'runs', 'abortion'))).toBe(false);
  });

  it('refuses a critique whose refinement cannot fit once the critiques are written, naming it, as run does', async () => {
    // One slot of 2560 tokens: every call kind's first call fits at about 1.5 characters a token,
    // but a refinement's task holds the critiques it received, and at their caps they do not fit.
    // Checked only by first calls, doctor passed this, and run stopped at the refinement after the
    // proposals and critiques were written.
    const server = await serve(['-c', '2560', '-np', '1', '--alias', 'llama3,mistral']);
    const scenario = scenarioFile(
      {
        format: 'critique',
        topic: 'Design a cache for product pages',
        seed: 3,
        agents: [
          { name: 'Ada', role: 'architect', model: 'llama3' },
          { name: 'Per', role: 'performance', model: 'mistral' },
        ],
        judge: { model: 'llama3' },
        rounds: 1,
      },
      server,
      ['llama3', 'mistral'],
    );
    const doctor = await runAgora(['doctor', scenario.file]);
    expect(doctor.code, doctor.stdout).toBe(3);
    expect(doctor.stdout).toMatch(/✓ Ada's proposal: about \d+ tokens before the debate so far/);
    const refusal =
      /✗ (the context window is too small: the prompt for Ada's refinement does not fit in a context window of 2560 tokens.*)/.exec(
        doctor.stdout,
      );
    expect(refusal, doctor.stdout).not.toBeNull();
    const run = await runAgora(['run', scenario.file, '--out', scenario.out, '--quiet']);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(refusal?.[1]);
    // Refused before its first call: no run folder was made.
    expect(existsSync(scenario.out)).toBe(false);
  });

  for (const window of ['4096', '8192']) {
    it(`agrees with run on whether every shipped scenario fits one ${window}-token slot`, async () => {
      const server = await serve(['-c', window, '-np', '1', '--alias', 'llama3,mistral,qwen2.5']);
      const verdicts: string[] = [];
      const files = shippedScenarios(server);
      // A few scenarios at a time: each is two short CLI runs, mostly starting up.
      for (let at = 0; at < files.length; at += 4) {
        await Promise.all(
          files.slice(at, at + 4).map(async (file) => {
            const [doctor, run] = await Promise.all([runAgora(['doctor', file]), runVerdict(file)]);
            const name = path.basename(file);
            verdicts.push(`${name}: doctor ${doctor.code}, run ${run.code}`);
            expect(run.code, `${name}\n${doctor.stdout}\n${run.stderr}`).toBe(doctor.code);
            // Both reached the servers and found every model: the verdict is about the window.
            expect([0, 3], `${name}\n${doctor.stdout}`).toContain(doctor.code);
            if (doctor.code === 3) {
              const first = /✗ (.+)/.exec(doctor.stdout)?.[1] ?? '';
              expect(run.stderr, name).toContain(first.slice(0, 120));
            }
          }),
        );
      }
      expect(verdicts.length).toBeGreaterThanOrEqual(10);
    });
  }
});

suite(`a time limit on a real llama-server${skipNote}`, () => {
  it('records the prompt tokens the server read for a statement cut at its time limit, and the report says it was cut', async () => {
    const server = await serve(['-c', '8192', '-np', '1', '--alias', 'llama3,mistral']);
    // The model writes until its cap (it has no end-of-turn token): a 1500-token cap is never
    // reached in five seconds, so every statement is cut at its time limit.
    const scenario = scenarioFile(
      {
        format: 'formal',
        topic: 'This house would ban private cars from city centres',
        seed: 3,
        debaters: [
          { name: 'Ada', model: 'llama3' },
          { name: 'Blaise', model: 'mistral' },
        ],
        model_options: { max_tokens: 1500, context_window: 8192 },
        preparation: { max_tokens: 1500 },
        statements: { time_limit_seconds: 5 },
      },
      server,
      ['llama3', 'mistral'],
    );
    const run = await runAgora(['run', scenario.file, '--out', scenario.out]);
    const runDir = onlyRunDir(scenario.out);
    const cut = readEvents(runDir).filter(
      (event) => event.type === 'statement' && event.timeLimited === true,
    );
    expect(cut.length, run.stderr).toBeGreaterThan(0);
    for (const statement of cut) {
      // The server's tokenizer counts the prompt it read: about 1.5 characters a token.
      expect(Number(statement.promptTokens)).toBeGreaterThan(0);
      const rate = Number(statement.promptChars) / Number(statement.promptTokens);
      expect(rate).toBeGreaterThan(1.1);
      expect(rate).toBeLessThan(2.2);
    }
    // The report and the transcript say which statements were cut.
    expect(run.stdout).toContain('cut at its time limit');
    expect(readFileSync(path.join(runDir, 'transcript.md'), 'utf8')).toContain('cut at its time limit');
    expect(run.stdout).not.toMatch(/^whole run +\d+ +0 /m);
  });
});
