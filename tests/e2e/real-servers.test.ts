/**
 * Runs against OpenAI-compatible servers that behave as real ones do (the simulator speaking like
 * llama-server): a prompt the server finds too long is fitted again and the run goes on; a window
 * nothing fits is named as the problem (exit 3), by `doctor` as by `run`; aliases and a server of
 * any name are accepted; the record holds every attempt's prompt, cached and output tokens; a
 * server that resets every connection stops the run, resumable (exit 4); the header names the
 * servers the models really go to.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { OMITTED_MARKER } from '../../src/context/fit-window.js';
import { type MockOllama, type MockOllamaOptions, startMockOllama } from '../../src/mock-ollama/index.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { FAST_RETRIES, SMALL_SCENARIOS } from '../helpers/format-scenarios.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function mock(options: MockOllamaOptions): Promise<MockOllama> {
  const server = await startMockOllama(options);
  servers.push(server);
  return server;
}

/** A scenario file whose `routed` models go to `baseUrl` (provider `local`). */
function scenarioFile(data: Record<string, unknown>, baseUrl: string, routed: string[]) {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(
    file,
    stringify({
      reliability: FAST_RETRIES,
      ...data,
      providers: { local: { type: 'openai', base_url: baseUrl, models: routed } },
    }),
  );
  return { file, out: path.join(dir, 'runs') };
}

const chatsOf = (server: MockOllama) =>
  server.requests.filter((request) => request.path === '/v1/chat/completions');

/** A duel whose judge runs a small vocabulary (about 2 characters per token) and long statements. */
async function smallVocabularyDuel(contextLength: number) {
  const server = await mock({
    models: ['llama3', 'mistral', 'qwen2.5'],
    contextLength,
    vocabularies: { 'qwen2.5': 'small' },
    script: [
      {
        match: { text: 'words' },
        reply: 'Evidence from the trial cities keeps pointing the same way, and costs stay low. '.repeat(30),
      },
    ],
  });
  // One judge call a round (no side swap), so each refusal below is the judge's first of a step.
  const duel =
    SMALL_SCENARIOS.duel?.({ judge: { name: 'Judge', model: 'qwen2.5', side_swap: false }, max_rounds: 3 }) ??
    {};
  const scenario = scenarioFile(duel, `${server.url}/v1`, ['llama3', 'mistral', 'qwen2.5']);
  const result = await runAgora(['run', scenario.file, '--out', scenario.out, '--quiet']);
  return { server, result, out: scenario.out };
}

/**
 * The steps of a run as they would read in any run of it: no times or sequence numbers, and no
 * cached tokens (those depend on what else the server's cache held).
 */
function steps(runDir: string): unknown[] {
  return readEvents(runDir)
    .filter((event) => event.type === 'statement' || event.type === 'assessment')
    .map(
      ({ seq: _seq, at: _at, realMs: _ms, cachedPromptTokens: _cached, hash: _hash, prev: _prev, ...rest }) =>
        rest,
    );
}

describe('a prompt longer than the server’s window', () => {
  it('is fitted again with what the server said, and the run goes on', async () => {
    const { server, result, out } = await smallVocabularyDuel(2400);
    expect(result.code, result.stderr).toBe(0);
    const judged = chatsOf(server).filter(
      (request) => (request.body as { model: string }).model === 'qwen2.5',
    );
    // The judge's first prompt passed the first guess of 4 characters per token; the server counted
    // more than its window, the prompt was cut with the rate that taught, and the judge answered.
    expect(judged.map((request) => request.status)).toEqual([400, 200, 200, 200]);
    const refitted = JSON.stringify(judged[1]?.body);
    expect(refitted).toContain(OMITTED_MARKER);
    expect(refitted.length).toBeLessThan(JSON.stringify(judged[0]?.body).length);
    // Later judgements are fitted at the measured rate at once: no more refusals.
    const assessments = readEvents(onlyRunDir(out)).filter((event) => event.type === 'assessment');
    expect(assessments).toHaveLength(3);
    for (const assessment of assessments) {
      expect(assessment.abstained).toBe(false);
      const rate = Number(assessment.promptChars) / Number(assessment.promptTokens);
      expect(rate).toBeGreaterThan(1.5);
      expect(rate).toBeLessThan(2.5);
    }
  });

  it('a resumed run fits its prompts as the uninterrupted run did (the rates come from the log)', async () => {
    const whole = await smallVocabularyDuel(2400);
    expect(whole.result.code).toBe(0);
    // The same duel, stopped after the first judgement (the one that taught the judge's rate): the
    // judge's first two requests (the refused one and its re-fit) go through, the third finds the
    // model missing, which stops the run, resumable.
    const server = await mock({
      models: ['llama3', 'mistral', 'qwen2.5'],
      contextLength: 2400,
      vocabularies: { 'qwen2.5': 'small' },
      script: [
        {
          match: { text: 'words' },
          reply: 'Evidence from the trial cities keeps pointing the same way, and costs stay low. '.repeat(
            30,
          ),
        },
        { match: { model: 'qwen2.5' }, times: 2 },
        { match: { model: 'qwen2.5' }, times: 1, fault: 'not-found-404' },
      ],
    });
    const duel =
      SMALL_SCENARIOS.duel?.({
        judge: { name: 'Judge', model: 'qwen2.5', side_swap: false },
        max_rounds: 3,
      }) ?? {};
    const scenario = scenarioFile(duel, `${server.url}/v1`, ['llama3', 'mistral', 'qwen2.5']);
    const stopped = await runAgora(['run', scenario.file, '--out', scenario.out, '--quiet']);
    expect(stopped.code).toBe(5);
    const runDir = onlyRunDir(scenario.out);
    expect(readEvents(runDir).filter((event) => event.type === 'assessment')).toHaveLength(1);
    const resumed = await runAgora(['resume', runDir, '--quiet']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(steps(runDir)).toEqual(steps(onlyRunDir(whole.out)));
    // After the resume, the judge's prompts were fitted at the measured rate at once.
    const judged = chatsOf(server).filter(
      (request) => (request.body as { model: string }).model === 'qwen2.5',
    );
    expect(judged.filter((request) => request.status === 400)).toHaveLength(1);
  });

  it('that nothing can fit is named as a context-window problem (exit 3), not a dead server', async () => {
    const { result } = await smallVocabularyDuel(1200);
    expect(result.code).toBe(3);
    // The first prompt that cannot fit 1200 tokens with 600 for its answer: the small-vocabulary
    // judge's, or a debater's once its task holds the judge's last assessment.
    expect(result.stderr).toMatch(
      /the context window is too small: the prompt for (Judge \(judgement\)|Ada's argument|Blaise's argument)/,
    );
    expect(result.stderr).not.toMatch(/server is running/);
  });
});

describe('a run stopped by its window', () => {
  it('is listed with the step that stopped it among its failed steps', async () => {
    // Ollama has no tokenizer to measure with before the run: the first call finds the window too small.
    const server = await mock({ models: ['llama3', 'mistral'] });
    const dir = tempDir();
    const file = path.join(dir, 'duel.yaml');
    writeFileSync(
      file,
      stringify(SMALL_SCENARIOS.duel?.({ model_options: { context_window: 600 }, debater_max_tokens: 500 })),
    );
    const out = path.join(dir, 'runs');
    const run = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    expect(run.code, run.stderr).toBe(3);
    const listed = await runAgora(['runs', '--out', out, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const [entry] = JSON.parse(listed.stdout) as Array<{ status: string; failedSteps: number }>;
    expect(entry?.status).toBe('failed');
    expect(entry?.failedSteps).toBe(1);
  });
});

describe('doctor checks what run checks', () => {
  it('refuses a background that cannot fit the server’s window, as run does', async () => {
    const server = await mock({ models: ['llama3', 'mistral'], contextLength: 2048 });
    const scenario = scenarioFile(
      {
        ...testScenario({ rounds: 1, yCount: 2, maxTokens: 256 }),
        background: { knowledge: { history: 'Congestion pricing began in Singapore in 1975. '.repeat(200) } },
      },
      `${server.url}/v1`,
      ['llama3', 'mistral'],
    );
    const doctor = await runAgora(['doctor', scenario.file]);
    expect(doctor.code).toBe(3);
    expect(doctor.stdout).toContain('✓ mistral, context window 2048 tokens');
    const refusal =
      /the server serving \w+ has a context window of 2048 tokens, smaller than model_options.context_window 8192 in .*: the topic, the background knowledge and context files come to about \d+ tokens/;
    expect(doctor.stdout).toMatch(new RegExp(`✗ ${refusal.source}`));
    const run = await runAgora(['run', scenario.file, '--out', scenario.out, '--quiet']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(refusal);
    expect(chatsOf(server)).toHaveLength(0);
  });
});

/** A window the judge's fixed part fits at 4 characters a token, and not at the small vocabulary's 2. */
const WINDOW = 1400;

describe('doctor predicts run on a model with a small vocabulary', () => {
  it('measures the rate on the server and refuses, in run’s words, a judge whose fixed part cannot fit', async () => {
    const server = await mock({
      models: ['llama3', 'mistral', 'qwen2.5'],
      contextLength: WINDOW,
      vocabularies: { 'qwen2.5': 'small' },
    });
    const duel =
      SMALL_SCENARIOS.duel?.({
        judge: { name: 'Judge', model: 'qwen2.5', side_swap: false },
        judge_max_tokens: 600,
        max_rounds: 2,
      }) ?? {};
    const scenario = scenarioFile(duel, `${server.url}/v1`, ['llama3', 'mistral', 'qwen2.5']);
    const doctor = await runAgora(['doctor', scenario.file]);
    // The server's tokenizer counts about 2 characters a token for the judge's model.
    const measured =
      /qwen2\.5: (\d+\.\d+) characters per token \(\d+ characters, \d+ tokens, by the server's tokenizer\)/.exec(
        doctor.stdout,
      );
    expect(measured, doctor.stdout).not.toBeNull();
    expect(Number(measured?.[1])).toBeLessThan(2.6);
    expect(doctor.stdout).toMatch(/✓ Ada's argument: about \d+ tokens before the debate so far/);
    const refusal =
      /the context window is too small: the prompt for Judge \(judgement\) does not fit in a context window of \d+ tokens with 600 tokens for the answer, even without the debate so far/;
    expect(doctor.stdout).toMatch(new RegExp(`✗ ${refusal.source}`));
    expect(doctor.code).toBe(3);
    const run = await runAgora(['run', scenario.file, '--out', scenario.out, '--quiet']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(refusal);
  });
});

describe('model names', () => {
  it('a scenario naming an alias the server lists is accepted by doctor and run', async () => {
    const server = await mock({
      models: ['llama3', 'mistral'],
      openAi: { aliases: { mistral: ['mistral-b'] } },
    });
    const data = testScenario({ rounds: 1, yCount: 2 });
    data.agents = (data.agents as Array<Record<string, unknown>>).map((agent) =>
      agent.model === 'mistral' ? { ...agent, model: 'mistral-b' } : agent,
    );
    const scenario = scenarioFile(data, `${server.url}/v1`, ['mistral-b']);
    const doctor = await runAgora(['doctor', scenario.file, '--host', server.url]);
    expect(doctor.code, doctor.stdout).toBe(0);
    expect(doctor.stdout).toContain('✓ mistral-b');
    const run = await runAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const routed = chatsOf(server);
    expect(routed.length).toBeGreaterThan(0);
    for (const request of routed) expect(request.body).toMatchObject({ model: 'mistral-b' });
  });

  it('a server started with one model serves whatever name the scenario gives it', async () => {
    const ollama = await mock({ models: ['llama3'] });
    const single = await mock({ models: ['stories260k'] });
    const data = testScenario({ rounds: 1, yCount: 2 });
    data.agents = (data.agents as Array<Record<string, unknown>>).map((agent) =>
      agent.model === 'mistral' ? { ...agent, model: 'my-finetune' } : agent,
    );
    const scenario = scenarioFile(data, `${single.url}/v1`, ['my-finetune']);
    const run = await runAgora([
      'run',
      scenario.file,
      '--host',
      ollama.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(chatsOf(single).length).toBeGreaterThan(0);
    // The header names both servers, each with the models that go there.
    expect(run.stdout).toContain(`Ollama: ${ollama.url}`);
    expect(run.stdout).toContain(`Provider local (openai): ${single.url}/v1 for my-finetune`);
  });
});

describe('the run header', () => {
  it('does not name an Ollama when every model goes to another server', async () => {
    const server = await mock({ models: ['llama3', 'mistral'] });
    const scenario = scenarioFile(testScenario({ rounds: 1, yCount: 2 }), `${server.url}/v1`, [
      'llama3',
      'mistral',
    ]);
    const run = await runAgora(['run', scenario.file, '--out', scenario.out, '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/^Ollama:/m);
    expect(run.stdout).toContain(`Provider local (openai): ${server.url}/v1 for llama3, mistral`);
  });
});

describe('the record of tokens', () => {
  it('holds every attempt’s prompt, cached and output tokens, as the server counted them', async () => {
    const missing = {
      match: { model: 'mistral', prompt: 'evaluate round 1\nYour name: Yusuf' },
      times: 1,
      json: { round_number: 1, position_y_performance: { argument_strength: 3 }, comments: 'ok' },
    };
    const server = await mock({ models: ['llama3', 'mistral'], script: [missing] });
    const scenario = scenarioFile(testScenario({ rounds: 2, yCount: 3 }), `${server.url}/v1`, ['mistral']);
    const run = await runAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const events = readEvents(onlyRunDir(scenario.out));
    const calls = events.filter((event) => typeof event.promptTokens === 'number');
    const sum = (model: string, field: string) =>
      calls
        .filter((event) => event.model === model)
        .reduce((total, event) => total + Number(event[field] ?? 0), 0);
    const stats = server.stats().perModel;
    // Yusuf's vote needed a second call: both are in its record.
    const vote = events.find(
      (event) => event.type === 'vote-cast' && event.judge === 'Yusuf' && event.round === 1,
    );
    expect(vote?.attempts).toBe(2);
    for (const model of ['mistral', 'llama3']) {
      expect(sum(model, 'promptTokens')).toBe(stats[`${model}:latest`]?.promptTokens);
      expect(sum(model, 'outputTokens')).toBe(stats[`${model}:latest`]?.outputTokens);
    }
    // The OpenAI-compatible server says what it served from its cache; Ollama does not.
    expect(sum('mistral', 'cachedPromptTokens')).toBe(stats['mistral:latest']?.cachedPromptTokens);
    expect(sum('mistral', 'cachedPromptTokens')).toBeGreaterThan(0);
    expect(
      calls.filter((event) => event.model === 'llama3').some((event) => 'cachedPromptTokens' in event),
    ).toBe(false);
    // The statistics show the cache share per model and for the run, and none for Ollama's model.
    const cached = stats['mistral:latest']?.cachedPromptTokens ?? 0;
    const share = `${Math.round((cached / (stats['mistral:latest']?.promptTokens ?? 1)) * 100)}%`;
    expect(run.stdout).toMatch(new RegExp(`^mistral +\\d+ +\\d+ +${cached} +${share} +\\d+ *$`, 'm'));
    expect(run.stdout).toMatch(/^llama3 +\d+ +\d+ +— +— +\d+ *$/m);
    expect(run.stdout).toMatch(/^whole run +\d+ +\d+ +\d+ +\d+% +\d+ *$/m);
  });
});

describe('a server that accepts and resets every connection', () => {
  it('stops the run, resumable (exit 4), instead of filling it with emergency answers', async () => {
    const server = await mock({
      models: ['llama3', 'mistral'],
      script: [{ match: { model: 'mistral' }, fault: 'reset-connection' }],
    });
    const scenario = scenarioFile(testScenario({ rounds: 1, yCount: 2 }), `${server.url}/v1`, ['mistral']);
    const run = await runAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/cannot reach the OpenAI-compatible server.*resume/s);
    const runDir = onlyRunDir(scenario.out);
    expect(readEvents(runDir).some((event) => event.degraded === true)).toBe(false);
    // Once the server works again (here: another one, where the provider's variable points), it goes on.
    const healthy = await mock({ models: ['llama3', 'mistral'] });
    const resumed = await runAgora(['resume', runDir, '--host', healthy.url], {
      env: { AGORA_PROVIDER_LOCAL_URL: `${healthy.url}/v1` },
    });
    expect(resumed.code, resumed.stderr).toBe(0);
  });
});
