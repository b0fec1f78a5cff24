/**
 * A run decided by failures never ends `completed` with exit 0: a missing model stops it, a dead
 * agent trips the failure limit, empty answers are retried, emergency responses are not judged,
 * and whatever failed is counted in the status, the report, `runs` and the exit code.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { MockOllama, ScriptRule } from '../../src/mock-ollama/index.js';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { FAST_RETRIES, SMALL_SCENARIOS } from '../helpers/format-scenarios.js';
import { useMockServers, waitForEvents } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral', 'qwen2.5'] });

const FAST = FAST_RETRIES;
const SCENARIOS = SMALL_SCENARIOS;

type Json = Record<string, unknown>;

function scenarioFile(data: Json) {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify({ reliability: FAST, ...data }));
  return { dir, file, out: path.join(dir, 'runs') };
}

const readJson = (runDir: string) =>
  JSON.parse(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')) as Json & {
    status: string;
    failedSteps: number;
    failures: string[];
    stopReason: string | null;
  };

const chats = (server: MockOllama, model?: string) =>
  server.requests.filter(
    (request) =>
      request.path === '/api/chat' &&
      (model === undefined || (request.body as { model: string }).model === model),
  );

const run = (file: string, server: MockOllama, out: string, ...flags: string[]) =>
  runAgora(['run', file, '--host', server.url, '--out', out, ...flags]);

describe('a model missing mid-run', () => {
  it.each(Object.keys(SCENARIOS))(
    '%s: stops at the first 404 (not retried, no emergency text), exit 5 with the pull hint; resume finishes it',
    async (format) => {
      const dead = await mock({ script: [{ match: { model: 'mistral' }, fault: 'not-found-404' }] });
      const scenario = scenarioFile((SCENARIOS[format] as (extra?: Json) => Json)());
      const result = await run(scenario.file, dead, scenario.out, '--quiet');
      expect(result.code).toBe(5);
      expect(result.stderr).toMatch(/ollama pull mistral/);
      expect(result.stderr).toMatch(/resume/);
      // One call to the missing model: a 404 is not retried and the run goes no further.
      expect(chats(dead, 'mistral')).toHaveLength(1);
      const runDir = onlyRunDir(scenario.out);
      expect(readJson(runDir).status).toBe('failed');
      expect(readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')).not.toMatch(/Emergency response/);

      const healthy = await mock();
      const resumed = await runAgora(['resume', runDir, '--host', healthy.url, '--quiet']);
      expect(resumed.code).toBe(0);
      expect(readJson(runDir)).toMatchObject({ status: 'completed', failedSteps: 0 });
    },
  );

  it('a fallback model still answers for a missing one', async () => {
    const server = await mock({ script: [{ match: { model: 'mistral' }, fault: 'not-found-404' }] });
    const data = testScenario({ rounds: 1 });
    for (const agent of data.agents as Json[]) agent.fallback_models = ['qwen2.5'];
    const scenario = scenarioFile(data);
    const result = await run(scenario.file, server, scenario.out, '--quiet');
    expect(result.code).toBe(0);
    const events = readEvents(onlyRunDir(scenario.out));
    expect(events.find((event) => event.type === 'turn-end' && event.position === 'Y')).toMatchObject({
      model: 'qwen2.5',
      fallbackFrom: 'mistral',
    });
  });
});

describe('the failure limit counts per agent and per model', () => {
  it('a dead Y model fails the run after 3 of its steps failed, though X kept succeeding', async () => {
    const server = await mock({ script: [{ match: { model: 'mistral' }, fault: 'error-500' }] });
    const scenario = scenarioFile(testScenario({ rounds: 5 }));
    const result = await run(scenario.file, server, scenario.out, '--quiet');
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/Yara failed 3 steps in a row.*resume/s);
    const runDir = onlyRunDir(scenario.out);
    const transcript = readJson(runDir) as unknown as Json & { rounds: unknown[] };
    expect(transcript.status).toBe('failed');
    expect(transcript.rounds).toHaveLength(3);
  });

  it('the council completes degraded when a role keeps failing, with its packet and the failure records (seed 003 §3, §7)', async () => {
    const server = await mock({ script: [{ match: { model: 'mistral' }, fault: 'error-500' }] });
    // The Critic's model fails in every round: more failures in a row than the limit other formats stop at.
    const scenario = scenarioFile(SCENARIOS.council?.() ?? {});
    const result = await run(scenario.file, server, scenario.out, '--quiet');
    expect(result.code).toBe(9);
    expect(result.stderr).not.toMatch(/failed 3 steps in a row/);
    const runDir = onlyRunDir(scenario.out);
    for (const file of [
      'request.json',
      'rounds/round-1.json',
      'rounds/round-2.json',
      'rounds/round-3.json',
      'consensus.json',
      'final-packet.json',
      'final-packet.md',
    ]) {
      expect(existsSync(path.join(runDir, file)), file).toBe(true);
    }
    const transcript = readJson(runDir);
    expect(transcript).toMatchObject({ status: 'degraded', stopReason: 'finished', failedSteps: 3 });
    expect(transcript.failures.join('\n')).toMatch(
      /round-1 1: Critic gave no answer.*round-2 2: Critic gave no answer.*round-3 3: Critic gave no answer/s,
    );
    const round = JSON.parse(readFileSync(path.join(runDir, 'rounds', 'round-3.json'), 'utf8')) as {
      outputs: Array<{ role: string; abstained: boolean; reason: string | null }>;
    };
    expect(round.outputs.find((output) => output.role === 'Critic')).toMatchObject({
      abstained: true,
      reason: expect.stringMatching(/500/),
    });
    const packet = JSON.parse(readFileSync(path.join(runDir, 'final-packet.json'), 'utf8')) as {
      risks: Array<{ risk: string }>;
      decision: { selected_option: string };
    };
    expect(packet.risks.map((item) => item.risk).join('\n')).toMatch(
      /Roles without an answer: Critic in round-1, Critic in round-2, Critic in round-3/,
    );
    // The other roles and the Judge answered: the decision is a real one.
    expect(packet.decision.selected_option).not.toMatch(/^No decision/);
    expect(chats(server, 'mistral').length).toBeGreaterThanOrEqual(3);
  });

  it('the council stops when the server goes away and resumes once it is back', async () => {
    // The Judge's decision (after 15 events) gets no answer, so the run is still waiting on this
    // server when it goes away, however late that is.
    const server = await mock({
      speed: 0.05,
      script: [{ match: { text: '## Your task: the decision\n' }, fault: 'hang' }],
    });
    const scenario = scenarioFile(SCENARIOS.council?.() ?? {});
    const { result } = startAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    await waitForEvents(scenario.out, 8);
    await server.close();
    const failed = await result;
    expect(failed.code).toBe(4);
    expect(failed.stderr).toMatch(/cannot reach Ollama.*resume/s);
    const runDir = onlyRunDir(scenario.out);
    expect(readJson(runDir).status).toBe('failed');
    expect(existsSync(path.join(runDir, 'final-packet.json'))).toBe(false);

    const revived = await mock();
    const resumed = await runAgora(['resume', runDir, '--host', revived.url, '--quiet']);
    expect(resumed.code).toBe(0);
    expect(readJson(runDir)).toMatchObject({ status: 'completed', failedSteps: 0 });
    const packet = JSON.parse(readFileSync(path.join(runDir, 'final-packet.json'), 'utf8')) as {
      decision: { selected_option: string };
    };
    expect(packet.decision.selected_option).not.toMatch(/No decision/);
  });
});

describe('empty answers', () => {
  it('an empty answer is retried like a failed call', async () => {
    const server = await mock({
      script: [{ match: { model: 'mistral', text: 'round 1 of 1' }, fault: 'empty', times: 1 }],
    });
    const scenario = scenarioFile(testScenario({ rounds: 1 }));
    const result = await run(scenario.file, server, scenario.out, '--quiet');
    expect(result.code).toBe(0);
    const y = readEvents(onlyRunDir(scenario.out)).find(
      (event) => event.type === 'turn-end' && event.position === 'Y',
    );
    expect(y).toMatchObject({ attempts: 2 });
    expect(String(y?.text).trim()).not.toBe('');
    expect(y?.degraded).toBeUndefined();
  });

  it.each(['knockout', 'duel', 'formal', 'critique'])(
    '%s: a model that only answers with whitespace gives marked emergency responses and a run that is not completed',
    async (format) => {
      const server = await mock({ script: [{ match: { model: 'mistral' }, reply: ' \n\t ' }] });
      const scenario = scenarioFile((SCENARIOS[format] as (extra?: Json) => Json)());
      const result = await run(scenario.file, server, scenario.out, '--quiet');
      expect([6, 9]).toContain(result.code);
      const runDir = onlyRunDir(scenario.out);
      const transcript = readJson(runDir);
      expect(['degraded', 'failed']).toContain(transcript.status);
      expect(transcript.failedSteps).toBeGreaterThan(0);
      expect(transcript.failures.join('\n')).toMatch(/emergency response \(.*empty answer/);
      const events = readFileSync(path.join(runDir, 'events.jsonl'), 'utf8');
      expect(events).toMatch(/Emergency response/);
    },
  );
});

describe('emergency responses are not judged', () => {
  it('the round of a debater whose model failed is not judged, and its vote is void', async () => {
    const yStatement: ScriptRule = {
      match: { model: 'mistral', text: 'round 1 of 2' },
      fault: 'error-500',
      times: 2,
    };
    const server = await mock({ script: [yStatement] });
    const scenario = scenarioFile(testScenario({ rounds: 2 }));
    const result = await run(scenario.file, server, scenario.out);
    expect(result.code).toBe(9);
    const runDir = onlyRunDir(scenario.out);
    const events = readEvents(runDir);
    const y1 = events.find(
      (event) => event.type === 'turn-end' && event.round === 1 && event.position === 'Y',
    );
    expect(y1).toMatchObject({ degraded: true });
    expect(events.filter((event) => event.type === 'vote-cast' && event.round === 1)).toHaveLength(0);
    expect(events.find((event) => event.type === 'round-end' && event.round === 1)).toMatchObject({
      outcome: 'void',
      rotation: null,
      tally: { decidedBy: 'void' },
    });
    // Round 2 was judged as usual.
    expect(events.filter((event) => event.type === 'vote-cast' && event.round === 2)).toHaveLength(3);
    expect(result.stdout).toMatch(/VOID/);
    expect(result.stdout).toMatch(/Degraded: 2 failed steps/);
    expect(readFileSync(path.join(runDir, 'transcript.md'), 'utf8')).toMatch(/void vote/);
  });

  it('a vote most of whose judges could not be called is void', async () => {
    const server = await mock({ script: [{ match: { prompt: 'evaluate round 1' }, fault: 'error-500' }] });
    const scenario = scenarioFile(testScenario({ rounds: 2 }));
    const result = await run(scenario.file, server, scenario.out, '--quiet');
    expect(result.code).toBe(9);
    const events = readEvents(onlyRunDir(scenario.out));
    expect(events.find((event) => event.type === 'round-end' && event.round === 1)).toMatchObject({
      outcome: 'void',
      tally: { decidedBy: 'void' },
    });
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'degraded', failedSteps: 4 });
  });
});

describe('a degraded run says so everywhere', () => {
  it('status, report, runs and exit code agree', async () => {
    const server = await mock({ script: [{ match: { model: 'llama3' }, fault: 'error-500', times: 2 }] });
    const scenario = scenarioFile(testScenario({ rounds: 2 }));
    const result = await run(scenario.file, server, scenario.out);
    expect(result.code).toBe(9);
    expect(result.stderr).toMatch(/1 failed step decided part of it \(status degraded, exit 9\)/);
    const runDir = onlyRunDir(scenario.out);
    expect(readJson(runDir)).toMatchObject({ status: 'degraded', failedSteps: 1 });
    expect(readJson(runDir).failures[0]).toMatch(/round 1: Xavier's statement is an emergency response/);
    const listed = await runAgora(['runs', '--out', scenario.out, '--json']);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ status: 'degraded', failedSteps: 1 }]);
    const resumed = await runAgora(['resume', runDir, '--host', server.url]);
    expect(resumed.code).toBe(9);
    expect(resumed.stdout).toMatch(/ended degraded/);
  });
});

describe('the council budget', () => {
  it('a budget that runs out cuts the remaining model states, and the packet says so', async () => {
    const server = await mock();
    const scenario = scenarioFile(SCENARIOS.council?.({ stop: { max_total_output_tokens: 300 } }) ?? {});
    const result = await run(scenario.file, server, scenario.out, '--quiet');
    expect(result.code).toBe(9);
    const runDir = onlyRunDir(scenario.out);
    const transcript = readJson(runDir) as unknown as Json & { state: string };
    expect(transcript).toMatchObject({ status: 'degraded', state: 'Done' });
    for (const file of ['rounds/round-1.json', 'rounds/round-3.json', 'consensus.json', 'final-packet.json'])
      expect(existsSync(path.join(runDir, file))).toBe(true);
    const packet = JSON.parse(readFileSync(path.join(runDir, 'final-packet.json'), 'utf8')) as {
      decision: { selected_option: string };
      risks: Array<{ risk: string }>;
    };
    expect(packet.risks[0]?.risk).toMatch(
      /States cut by the budget: Round2, Round3, Judge \(max_total_output_tokens/,
    );
    expect(packet.decision.selected_option).toMatch(/budget ran out/);
    expect(transcript.note).toEqual(expect.any(String));
    // No model call after the budget ran out: round 1's four roles only.
    expect(chats(server)).toHaveLength(4);
    // budget.json records the limit, what was used (at or over it) and the cut, as the server counted.
    const budget = JSON.parse(readFileSync(path.join(runDir, 'budget.json'), 'utf8')) as {
      limits: { max_total_output_tokens: number };
      used: { output_tokens: number; model_calls: number };
      cut: { states: string[] } | null;
    };
    expect(budget.limits.max_total_output_tokens).toBe(300);
    expect(budget.used.output_tokens).toBeGreaterThanOrEqual(300);
    expect(budget.used.model_calls).toBe(4);
    expect(budget.cut?.states).toEqual(['Round2', 'Round3', 'Judge']);
  });
});

describe('stop conditions belong to their format', () => {
  it('a knockout has no token or runtime budget unless the scenario sets one', async () => {
    const long = `${'The evidence from city trials is clear and it keeps pointing the same way. '.repeat(60)}`;
    const server = await mock({ script: [{ match: { text: 'words of speaking time' }, reply: long }] });
    const data = testScenario({ rounds: 7, maxTokens: 1024 });
    const scenario = scenarioFile(data);
    const validated = await runAgora(['validate', scenario.file]);
    expect(validated.stdout).toMatch(/Stops at: 7 rounds \(or the rotation rules\); 3 failed steps/);
    expect(validated.stdout).not.toMatch(/output tokens/);
    const result = await run(scenario.file, server, scenario.out, '--quiet');
    expect(result.code).toBe(0);
    const transcript = readJson(onlyRunDir(scenario.out)) as unknown as Json & {
      rounds: unknown[];
      stopConditions: string;
    };
    expect(transcript.stopReason).toBe('max_rounds');
    expect(transcript.rounds).toHaveLength(7);
    expect(transcript.stopConditions).toMatch(/^Stops at: 7 rounds/);
  });

  it('the duel keeps seed 000 budget of 600 s and 8000 tokens', async () => {
    const scenario = scenarioFile(SCENARIOS.duel?.() ?? {});
    const validated = await runAgora(['validate', scenario.file]);
    expect(validated.stdout).toMatch(/600 s of active time; 8000 output tokens in all/);
  });
});

describe('order and time limits', () => {
  it('critique records contributions made side by side in the agents’ order, whichever finishes first', async () => {
    // Ada, listed first, answers last.
    const server = await mock({
      script: [
        {
          match: { model: 'llama3' },
          latencyMs: 400,
          reply: 'Use a read-through cache with a short TTL and stampede protection.',
        },
      ],
    });
    const scenario = scenarioFile(SCENARIOS.critique?.({ judge: { model: 'qwen2.5' } }) ?? {});
    const result = await run(scenario.file, server, scenario.out, '--quiet');
    expect(result.code).toBe(0);
    const order = readEvents(onlyRunDir(scenario.out))
      .filter((event) => event.type === 'statement')
      .map((event) => `${event.phase}:${event.speaker}`);
    expect(order).toEqual([
      'proposal:Ada',
      'proposal:Per',
      'critique:Ada',
      'critique:Per',
      'refinement:Ada',
      'refinement:Per',
      // The judge's design, written after every contribution.
      'synthesis:Judge',
    ]);
  });

  it('formal statements keep to --timeout even when their own time limit is longer', async () => {
    const server = await mock({ script: [{ match: { model: 'mistral' }, fault: 'hang' }] });
    const scenario = scenarioFile(
      SCENARIOS.formal?.({ reliability: { ...FAST, attempts: 1, max_consecutive_failures: 1 } }) ?? {},
    );
    const started = Date.now();
    const result = await run(scenario.file, server, scenario.out, '--quiet', '--timeout', '2');
    expect(result.code).toBe(6);
    const blaise = readEvents(onlyRunDir(scenario.out)).find(
      (event) => event.type === 'statement' && event.speaker === 'Blaise',
    );
    expect(blaise).toMatchObject({ degraded: true });
    expect(String(blaise?.failureReason)).toMatch(/did not finish within 2 s/);
    // Two tries (a timeout is always retried once) of 2 s each, not the statement's own limit.
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});

describe('every format keeps its prompts within the context window', () => {
  const SMALL: Record<string, Json> = {
    formal: { model_options: { temperature: 0.7, max_tokens: 400, context_window: 2048 } },
    duel: { max_rounds: 4, model_options: { temperature: 0.7, context_window: 2048 } },
    critique: {
      rounds: 3,
      include_full_history: true,
      max_tokens: 500,
      judge_max_tokens: 500,
      model_options: { temperature: 0.5, context_window: 2048 },
    },
    // The Judge's decision, a long JSON object, needs its default 900 tokens.
    council: {
      max_tokens: 500,
      model_options: { temperature: 0.5, context_window: 2560 },
    },
  };
  it.each(Object.keys(SMALL))(
    '%s: a debate longer than a small context window never sends a prompt that does not fit',
    async (format) => {
      // Long answers fill the history quickly; judges and roles still get valid JSON from the simulator.
      const long = 'Evidence from the trial cities keeps pointing the same way, and costs stay low. '.repeat(
        30,
      );
      const server = await mock({ script: [{ match: { text: 'words' }, reply: long }] });
      const scenario = scenarioFile((SCENARIOS[format] as (extra?: Json) => Json)(SMALL[format]));
      const result = await run(scenario.file, server, scenario.out, '--quiet');
      const runDir = onlyRunDir(scenario.out);
      // A real Ollama refuses (truncate: false) a prompt over num_ctx, as the simulator does with a 400.
      expect(readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')).not.toMatch(
        /exceeds the context length/,
      );
      expect(result.code).toBe(0);
      const bodies = chats(server).map((request) => JSON.stringify(request.body));
      expect(bodies.some((body) => body.includes("omitted to fit the model's context window"))).toBe(true);
    },
  );
});

describe('a duel round with an emergency response', () => {
  it('is not judged: neither side wins it on a failure', async () => {
    const server = await mock({ script: [{ match: { model: 'mistral' }, fault: 'error-500', times: 2 }] });
    const scenario = scenarioFile((SCENARIOS.duel as (extra?: Json) => Json)());
    const result = await run(scenario.file, server, scenario.out, '--quiet');
    expect(result.code).toBe(9);
    const events = readEvents(onlyRunDir(scenario.out));
    expect(
      events.find((event) => event.type === 'statement' && event.round === 1 && event.speaker === 'Blaise'),
    ).toMatchObject({ degraded: true });
    expect(events.find((event) => event.type === 'assessment' && event.round === 1)).toMatchObject({
      abstained: true,
      result: null,
      reason: expect.stringMatching(/^void: Blaise could not speak/),
    });
    // The judge was not asked about round 1; round 2 was judged as usual.
    const judged = chats(server).filter((request) => JSON.stringify(request.body).includes('"format"'));
    // (asked twice: side swap is on by default)
    expect(judged).toHaveLength(2);
  });
});
