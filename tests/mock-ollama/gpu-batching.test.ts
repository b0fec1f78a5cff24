import { afterEach, describe, expect, it, vi } from 'vitest';
import { busyFloorSeconds } from '../../src/mock-ollama/busy-floor.js';
import { GpuClock } from '../../src/mock-ollama/gpu-clock.js';
import { type CostProfile, type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { json, post } from './helpers.js';

const profile: CostProfile = {
  name: 'batching',
  prefillTokensPerSecond: 1000,
  decodeTokensPerSecond: 100,
  loadSeconds: 0,
  maxLoadedModels: 2,
  parallel: 2,
  batchStepGrowth: 0.2,
};

/**
 * Runs jobs started together to their last token; resolves with the GPU's busy seconds. The clock
 * is paced by real time (20 ms per simulated second here), so the test's clock is a fake one: the
 * jobs start at the same instant however busy the machine is, and time moves only as the clock's
 * own timers fire.
 */
async function busyFor(jobs: Array<{ model: string; prefill: number; output: number }>): Promise<number> {
  return (await runJobs(jobs)).busy;
}

/** As `busyFor`, with the decode steps the clock counted and the tokens they wrote. */
async function runJobs(
  jobs: Array<{ model: string; prefill: number; output: number }>,
): Promise<{ busy: number; steps: number; tokens: number }> {
  vi.useFakeTimers();
  try {
    const clock = new GpuClock(profile, 20);
    const signal = new AbortController().signal;
    const started = jobs.map((job) => ({ job, handle: clock.start(job.model, job.prefill, job.output) }));
    const reached = Promise.all(started.map(({ job, handle }) => handle.reach(job.output, signal)));
    await vi.runAllTimersAsync();
    expect(await reached).toEqual(started.map(() => true));
    for (const { handle } of started) handle.end();
    return { busy: clock.busySeconds(), ...clock.decodeSteps() };
  } finally {
    vi.useRealTimers();
  }
}

describe('the simulated GPU', () => {
  it('batches the decodes of one model: a step of two sequences takes 1.2 lone steps', async () => {
    expect(await busyFor([{ model: 'a', prefill: 0, output: 50 }])).toBeCloseTo(0.5, 6);
    // Two sequences of 50 tokens: 50 steps of 1.2 / 100 s.
    expect(
      await busyFor([
        { model: 'a', prefill: 0, output: 50 },
        { model: 'a', prefill: 0, output: 50 },
      ]),
    ).toBeCloseTo(0.6, 6);
  });

  it('counts a step of a batch once, and a step of each model separately', async () => {
    // Two sequences of model a decode 50 steps together; model b's one sequence 50 steps of its own.
    const run = await runJobs([
      { model: 'a', prefill: 0, output: 50 },
      { model: 'a', prefill: 0, output: 50 },
      { model: 'b', prefill: 0, output: 50 },
    ]);
    expect(run.steps).toBeCloseTo(100, 6);
    expect(run.tokens).toBeCloseTo(150, 6);
    // A lone sequence: one token a step.
    const alone = await runJobs([{ model: 'a', prefill: 40, output: 30 }]);
    expect(alone.tokens / alone.steps).toBeCloseTo(1, 6);
  });

  it('shares the GPU between two models: together they take as long as one after the other', async () => {
    expect(
      await busyFor([
        { model: 'a', prefill: 0, output: 50 },
        { model: 'b', prefill: 0, output: 50 },
      ]),
    ).toBeCloseTo(1.0, 6);
  });

  it('shares compute between prompts read at once', async () => {
    // 250 + 250 prompt tokens at 1,000 tok/s, then one batch of two 10-token decodes (10 × 1.2 / 100 s).
    expect(
      await busyFor([
        { model: 'a', prefill: 250, output: 10 },
        { model: 'a', prefill: 250, output: 10 },
      ]),
    ).toBeCloseTo(0.5 + 0.12, 6);
    // 300 and 200: both read at half rate until 0.4 s; the second then decodes alone beside the
    // first's last 100 prompt tokens (0.2 s, half rate each), and the first decodes alone (0.1 s).
    expect(
      await busyFor([
        { model: 'a', prefill: 300, output: 10 },
        { model: 'a', prefill: 200, output: 10 },
      ]),
    ).toBeCloseTo(0.7, 6);
  });
});

describe('the least busy time for a given work', () => {
  type Job = { model: string; prefill: number; output: number };
  const floorOf = (jobs: Job[]) =>
    busyFloorSeconds(profile, {
      prefilled: jobs.reduce((sum, job) => sum + job.prefill, 0),
      decoded: jobs.reduce((sum, job) => sum + job.output, 0),
      slots: profile.parallel,
    });

  it('is what the clock takes when every decode step is full', async () => {
    const full: Job[] = [
      { model: 'a', prefill: 0, output: 50 },
      { model: 'a', prefill: 0, output: 50 },
    ];
    // 50 steps of two sequences: 50 × 1.2 / 100 s.
    expect(floorOf(full)).toBeCloseTo(0.6, 6);
    expect(await busyFor(full)).toBeCloseTo(floorOf(full), 6);
    const withPrompts: Job[] = [
      { model: 'a', prefill: 250, output: 10 },
      { model: 'a', prefill: 250, output: 10 },
    ];
    expect(await busyFor(withPrompts)).toBeCloseTo(floorOf(withPrompts), 6);
  });

  it('is below what the clock takes when a step serves fewer sequences than there are slots', async () => {
    const cases: Job[][] = [
      // Uneven answers: the longer one's last 40 tokens decode alone.
      [
        { model: 'a', prefill: 0, output: 10 },
        { model: 'a', prefill: 0, output: 50 },
      ],
      // One sequence each of two models: no step is shared.
      [
        { model: 'a', prefill: 0, output: 30 },
        { model: 'b', prefill: 0, output: 30 },
      ],
      // Prompts read at different lengths, so the decodes start apart.
      [
        { model: 'a', prefill: 300, output: 20 },
        { model: 'a', prefill: 100, output: 20 },
      ],
    ];
    for (const jobs of cases) {
      expect(await busyFor(jobs)).toBeGreaterThan(floorOf(jobs) + 0.01);
    }
    // The first: 10 steps of two (0.12 s) and 40 alone (0.4 s), against 30 full steps (0.36 s).
    expect(await busyFor(cases[0] as Job[])).toBeCloseTo(0.52, 6);
    expect(floorOf(cases[0] as Job[])).toBeCloseTo(0.36, 6);
  });
});

describe('GPU-busy time through the server', () => {
  const servers: MockOllama[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  const busyOfPair = async (models: [string, string]): Promise<number> => {
    // 2 real seconds per simulated second: a 40-token answer alone takes 0.8 s of real time, so the
    // pair's two requests overlap even when the machine delays one of them by a good part of that.
    const server = await startMockOllama({ models: ['llama3', 'mistral'], profile, speed: 2 });
    servers.push(server);
    // Load both models first, so the pair's requests start together.
    for (const model of models) {
      await post(`${server.url}/api/chat`, { model, messages: [], keep_alive: -1 });
    }
    server.resetStats();
    const chat = (model: string, content: string) =>
      post(`${server.url}/api/chat`, {
        model,
        messages: [{ role: 'user', content }],
        stream: false,
        options: { seed: 1, num_predict: 40 },
      }).then(json);
    const answers = (await Promise.all([chat(models[0], 'first'), chat(models[1], 'second')])) as Array<{
      eval_count: number;
    }>;
    expect(answers.map((answer) => answer.eval_count)).toEqual([40, 40]);
    return server.stats().gpuBusySeconds;
  };

  it('counts two requests of one model as one batch, and two models as twice the work', async () => {
    const sameModel = await busyOfPair(['llama3', 'llama3']);
    const twoModels = await busyOfPair(['llama3', 'mistral']);
    // 40 decode steps: about 0.48 s batched, 0.8 s for two models (plus a few prompt tokens).
    expect(sameModel).toBeGreaterThan(0.48);
    expect(twoModels).toBeGreaterThan(0.8);
    expect(sameModel).toBeLessThan(twoModels * 0.75);
  });
});
