import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { MockOllama } from '../../src/mock-ollama/index.js';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { voteRule } from '../helpers/judge-script.js';
import { answerLate, useMockServers, waitForEvents } from '../helpers/mock-servers.js';
import { type TestScenarioOptions, testScenario } from '../helpers/scenario.js';
import { comparable, onlyRunDir, readEvents, readTranscript } from '../helpers/transcripts.js';

/** Fast retries so fault tests take milliseconds, not seconds. */
const FAST_RETRIES = {
  attempts: 3,
  backoff_ms: 5,
  max_backoff_ms: 20,
  request_timeout_seconds: 600,
  max_consecutive_failures: 3,
};

const mock = useMockServers();

/** Round 3's judges get no answer: a run on this server never ends by itself (a 3-round run has 26 events). */
const HOLD_ROUND_3 = { match: { text: '## Your task: evaluate round 3\n' }, fault: 'hang' } as const;

/**
 * Round 3's first judge answers 60 s late, once: a run stopped after a step in flight (which waits
 * for that step, so a call that never answers would hold it for ever) is still going when the stop
 * comes, unless the stop is a minute late. Nothing else can hold a run that must then finish.
 */
const SLOW_ROUND_3 = answerLate({ text: '## Your task: evaluate round 3\n' }, 1);

function writeScenario(
  options: TestScenarioOptions & { reliability?: object; stop?: object; x?: object } = {},
) {
  const dir = tempDir();
  const data = testScenario({ rounds: 3, ...options });
  data.reliability = { ...FAST_RETRIES, ...options.reliability };
  if (options.stop) data.stop = options.stop;
  if (options.x)
    (data.agents as Array<Record<string, unknown>>)[0] = { ...(data.agents as object[])[0], ...options.x };
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify(data));
  return { file, out: path.join(dir, 'runs') };
}

async function reference(scenario: ReturnType<typeof writeScenario>, server: MockOllama) {
  const out = `${scenario.out}-reference`;
  const result = await runAgora(['run', scenario.file, '--host', server.url, '--out', out, '--quiet']);
  expect(result.code).toBe(0);
  return readTranscript(onlyRunDir(out));
}

describe('resume after a crash or a stop', () => {
  it.each([3, 9, 16])(
    'kill -9 after %i events, then resume: the same transcript as an uninterrupted run',
    async (at) => {
      const server = await mock({ speed: 0.05 });
      const scenario = writeScenario();
      const expected = await reference(scenario, server);
      // The killed run's server never answers round 3's votes (after its 21st event), so the run is
      // still going when the kill lands however late that is; the resume goes on on the other server.
      const held = await mock({ speed: 0.05, script: [HOLD_ROUND_3] });
      const { child, result } = startAgora([
        'run',
        scenario.file,
        '--host',
        held.url,
        '--out',
        scenario.out,
        '--quiet',
      ]);
      await waitForEvents(scenario.out, at);
      child.kill('SIGKILL');
      await result;
      const runDir = onlyRunDir(scenario.out);
      const before = readEvents(runDir);
      expect(before.at(-1)?.type).not.toBe('run-end');

      const resumed = await runAgora(['resume', runDir, '--host', server.url, '--quiet']);
      expect(resumed.code).toBe(0);
      const after = readEvents(runDir);
      // No completed step is lost or redone: the old log is a prefix of the new one.
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.filter((event) => event.type === 'run-resume')).toHaveLength(1);
      expect(comparable(readTranscript(runDir))).toEqual(comparable(expected));
    },
  );

  it('Ctrl-C stops after the step in flight with exit 130; resume finishes the same debate', async () => {
    const server = await mock({ speed: 0.05 });
    const scenario = writeScenario();
    const expected = await reference(scenario, server);
    const slowed = await mock({ speed: 0.05, script: [SLOW_ROUND_3] });
    const { child, result } = startAgora([
      'run',
      scenario.file,
      '--host',
      slowed.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    await waitForEvents(scenario.out, 6);
    child.kill('SIGINT');
    const stopped = await result;
    expect(stopped.code).toBe(130);
    expect(stopped.stdout).toMatch(/Continue with: npm run agora -- resume/);
    const runDir = onlyRunDir(scenario.out);
    expect(readEvents(runDir).at(-1)).toMatchObject({
      type: 'run-end',
      status: 'stopped',
      stopReason: 'manual-stop',
    });
    expect(readTranscript(runDir).status).toBe('stopped');

    const runs = await runAgora(['runs', '--out', scenario.out, '--json']);
    expect(JSON.parse(runs.stdout)).toEqual([
      expect.objectContaining({ status: 'stopped', stopReason: 'manual-stop' }),
    ]);

    const resumed = await runAgora([
      'resume',
      path.basename(runDir),
      '--out',
      scenario.out,
      '--host',
      server.url,
      '--quiet',
    ]);
    expect(resumed.code).toBe(0);
    expect(comparable(readTranscript(runDir))).toEqual(comparable(expected));
  });

  it('agora stop asks a run in another process to stop', async () => {
    const server = await mock({ speed: 1 });
    const scenario = writeScenario({ rounds: 6 });
    const { result } = startAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    await waitForEvents(scenario.out, 3);
    const runDir = onlyRunDir(scenario.out);
    const stop = await runAgora(['stop', runDir]);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toMatch(/Asked process \d+ to stop/);
    expect((await result).code).toBe(130);
    expect(readTranscript(runDir)).toMatchObject({ status: 'stopped', stopReason: 'manual-stop' });
    const again = await runAgora(['stop', runDir]);
    expect(again.stdout).toMatch(/No process is running/);
  });

  it('drops a torn last line with a warning, and refuses a log damaged elsewhere', async () => {
    const server = await mock({ speed: 0.05 });
    const scenario = writeScenario({ rounds: 2 });
    const expected = await reference(scenario, server);
    const { child, result } = startAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    await waitForEvents(scenario.out, 4);
    child.kill('SIGKILL');
    await result;
    const runDir = onlyRunDir(scenario.out);
    const log = path.join(runDir, 'events.jsonl');
    const intact = readFileSync(log, 'utf8');

    writeFileSync(log, intact.replace(/\n(.*)\n$/, '\n{"seq": broken\n$1\n'));
    const damaged = await runAgora(['resume', runDir, '--host', server.url, '--quiet']);
    expect(damaged.code).toBe(7);
    expect(damaged.stderr).toMatch(/events\.jsonl:\d+: not a valid event/);

    writeFileSync(log, intact);
    appendFileSync(log, '{"seq":99,"type":"turn-e');
    const resumed = await runAgora(['resume', runDir, '--host', server.url, '--quiet']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/was cut off by a crash; it was dropped/);
    expect(comparable(readTranscript(runDir))).toEqual(comparable(expected));
  });

  it('refuses a second process on the same run, and takes over a dead process lock', async () => {
    // The Y side's first call never answers, so the first process is still running when the second comes.
    const server = await mock({ script: [{ match: { model: 'mistral' }, fault: 'hang' }] });
    const scenario = writeScenario();
    const { child, result } = startAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    await waitForEvents(scenario.out, 2);
    const runDir = onlyRunDir(scenario.out);
    const refused = await runAgora(['resume', runDir, '--host', server.url, '--quiet']);
    expect(refused.code).toBe(8);
    expect(refused.stderr).toMatch(new RegExp(`being written by process ${child.pid}`));
    child.kill('SIGKILL');
    await result;

    writeFileSync(path.join(runDir, 'run.lock'), '2147483646\n');
    await server.close();
    const fast = await mock();
    const resumed = await runAgora(['resume', runDir, '--host', fast.url, '--quiet']);
    expect(resumed.code).toBe(0);
    expect(existsSync(path.join(runDir, 'run.lock'))).toBe(false);
  });
});

describe('safe model calls against injected faults', () => {
  it.each([
    ['error-500', {}],
    ['busy-503', {}],
    ['cut-stream', {}],
    ['error-in-stream', {}],
    ['malformed-json', {}],
    // Long enough that no answered call of the run outlasts it on a busy machine, only the hang.
    ['hang', { request_timeout_seconds: 5 }],
  ] as const)('retries a %s once and goes on', async (fault, reliability) => {
    const server = await mock({ script: [{ match: { text: 'Your name: Xavier\n' }, times: 1, fault }] });
    const scenario = writeScenario({ rounds: 1, reliability });
    const result = await runAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(scenario.out);
    const first = readEvents(runDir).find((event) => event.type === 'turn-end');
    expect(first).toMatchObject({ agent: 'Xavier', attempts: 2 });
    expect(first?.degraded).toBeUndefined();
    expect(readTranscript(runDir).rounds[0]?.statements[0]?.text.length).toBeGreaterThan(50);
  });

  it('does not retry a bad request', async () => {
    const server = await mock({
      script: [{ match: { text: 'Your name: Xavier\n' }, fault: 'bad-request-400' }],
    });
    const scenario = writeScenario({ rounds: 1 });
    await runAgora(['run', scenario.file, '--host', server.url, '--out', scenario.out, '--quiet']);
    const turn = readEvents(onlyRunDir(scenario.out)).find((event) => event.type === 'turn-end');
    expect(turn).toMatchObject({ agent: 'Xavier', degraded: true, attempts: 1 });
  });

  it('switches to a fallback model when the agent model keeps failing, and says so', async () => {
    const server = await mock({ script: [{ match: { model: 'llama3' }, fault: 'error-500' }] });
    const scenario = writeScenario({ rounds: 1, x: { fallback_models: ['qwen2.5'] } });
    const result = await runAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(scenario.out);
    const statement = readTranscript(runDir).rounds[0]?.statements[0];
    expect(statement).toMatchObject({ agent: 'Xavier', model: 'qwen2.5', fallbackFrom: 'llama3' });
    expect(readFileSync(path.join(runDir, 'transcript.md'), 'utf8')).toMatch(
      /fallback model `qwen2\.5` instead of `llama3`/,
    );
  });

  it('records a degraded turn and goes on when every attempt fails', async () => {
    const server = await mock({ script: [{ match: { model: 'llama3' }, fault: 'error-500' }] });
    const scenario = writeScenario({ rounds: 2 });
    const result = await runAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    // The debate reached its end, but with emergency statements in it: degraded, exit 9.
    expect(result.code).toBe(9);
    const transcript = readTranscript(onlyRunDir(scenario.out));
    expect(transcript.status).toBe('degraded');
    const xTurns = transcript.rounds.map((round) => round.statements[0]);
    for (const turn of xTurns) {
      expect(turn).toMatchObject({ agent: 'Xavier', degraded: true, outputTokens: 0, simulatedSeconds: 0 });
      expect(turn?.text).toMatch(
        /^\[Emergency response: Xavier could not speak.*This is not an argument\.\]$/,
      );
    }
    expect(transcript.stats.degradedTurns).toBe(2);
    const requests = server.requests.filter((request) =>
      JSON.stringify(request.body ?? '').includes('Your name: Xavier'),
    );
    expect(requests).toHaveLength(2 * 3);
  });

  it('fails when the server dies, keeps what was done, and resumes', async () => {
    const healthy = await mock({ speed: 0.05 });
    const scenario = writeScenario({ rounds: 3 });
    const expected = await reference(scenario, healthy);
    // Round 3's judges get no answer, so the run is still waiting on this server when it dies.
    const server = await mock({ speed: 0.05, script: [HOLD_ROUND_3] });
    const { result } = startAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    // Round 1 (two statements, their claims, three votes, the decision) is over after 9 events.
    await waitForEvents(scenario.out, 10);
    await server.close();
    const failed = await result;
    // An unreachable server stops the run at once (exit 4) instead of filling it with emergency responses.
    expect(failed.code).toBe(4);
    expect(failed.stderr).toMatch(/cannot reach Ollama.*resume/s);
    const runDir = onlyRunDir(scenario.out);
    const transcript = readTranscript(runDir);
    expect(transcript.status).toBe('failed');
    expect(transcript.rounds[0]?.outcome).not.toBeNull();

    const revived = await mock();
    const resumed = await runAgora(['resume', runDir, '--host', revived.url, '--quiet']);
    expect(resumed.code).toBe(0);
    const finished = readTranscript(runDir);
    expect(finished.status).toBe('completed');
    expect(finished.rounds).toHaveLength(3);
    // Round 1 finished before the server died and was kept exactly as it was.
    const firstRound = (transcript: typeof finished) =>
      (comparable(transcript) as { rounds: unknown[] }).rounds[0];
    expect(firstRound(finished)).toEqual(firstRound(expected));
  });

  it('repairs, then abstains on, judge answers that miss fields', async () => {
    const missing = {
      match: { prompt: 'evaluate round 1\nYour name: Yusuf' },
      json: { round_number: 1, position_y_performance: { argument_strength: 3 }, comments: 'ok' },
    };
    const server = await mock({ script: [missing] });
    const scenario = writeScenario({ rounds: 1 });
    await runAgora(['run', scenario.file, '--host', server.url, '--out', scenario.out, '--quiet']);
    const evaluation = readTranscript(onlyRunDir(scenario.out)).rounds[0]?.evaluations.find(
      (item) => item.judge === 'Yusuf',
    );
    expect(evaluation).toMatchObject({ abstained: true });
    expect(evaluation?.abstainReason).toMatch(/continue_vote/);
  });

  it('refuses a missing model before anything is written', async () => {
    const server = await mock({ models: ['llama3'] });
    const scenario = writeScenario();
    const result = await runAgora(['run', scenario.file, '--host', server.url, '--out', scenario.out]);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/ollama pull mistral/);
    expect(existsSync(scenario.out)).toBe(false);
    expect(server.requests.filter((request) => request.path === '/api/chat')).toHaveLength(0);
  });
});

describe('stop conditions', () => {
  it('stops at max_total_output_tokens', async () => {
    const server = await mock();
    const scenario = writeScenario({ rounds: 6, stop: { max_total_output_tokens: 600 } });
    const result = await runAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--json',
    ]);
    expect(result.code).toBe(0);
    const transcript = readTranscript(onlyRunDir(scenario.out));
    expect(transcript).toMatchObject({ status: 'completed', stopReason: 'max_total_output_tokens' });
    expect(transcript.stats.outputTokens).toBeGreaterThanOrEqual(600);
    expect(transcript.rounds.length).toBeLessThan(6);
  });

  it('stops at max_runtime_seconds', async () => {
    const server = await mock({ speed: 0.2 });
    const scenario = writeScenario({ rounds: 6, stop: { max_runtime_seconds: 1 } });
    const result = await runAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    expect(result.code).toBe(0);
    const transcript = readTranscript(onlyRunDir(scenario.out));
    expect(transcript).toMatchObject({ status: 'completed', stopReason: 'max_runtime_seconds' });
    expect(transcript.rounds.length).toBeLessThan(6);
  });

  it('stops early when the judges find no new arguments two rounds running (no model keeps the claims ledger)', async () => {
    const server = await mock({ script: [voteRule({ vote: 'continue', newArguments: false })] });
    const scenario = writeScenario({
      rounds: 6,
      stop: { judge_early_stop: true },
      extra: { memory: { claims: 'heuristic' } },
    });
    const result = await runAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    expect(result.code).toBe(0);
    const transcript = readTranscript(onlyRunDir(scenario.out));
    expect(transcript).toMatchObject({ status: 'completed', stopReason: 'judge_early_stop' });
    expect(transcript.rounds).toHaveLength(2);
  });

  it('keeps going when the judges still see new arguments', async () => {
    const server = await mock({ script: [voteRule({ vote: 'continue', newArguments: true })] });
    const scenario = writeScenario({ rounds: 3, stop: { judge_early_stop: true } });
    await runAgora(['run', scenario.file, '--host', server.url, '--out', scenario.out, '--quiet']);
    expect(readTranscript(onlyRunDir(scenario.out))).toMatchObject({ stopReason: 'max_rounds' });
  });
});
