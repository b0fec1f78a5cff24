/**
 * One Ctrl-C stops after the step in flight, however the CLI was launched. Under `npm run` with
 * tsx, one keypress can reach the process twice within milliseconds (the process group gets it,
 * and tsx's parent relays it): that must not count as the second Ctrl-C that aborts the step.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startAgora, tempDir } from '../helpers/cli.js';
import { answerLate, useMockServers, waitForEvents } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A run whose first step is in flight. With `hang`, its first model call never answers, so the step
 * is still in flight however long the test takes to send its signals; without it, the step ends by
 * itself a few seconds later.
 */
async function startSlowRun(options: { hang?: boolean } = {}) {
  const server = await mock({
    speed: 1,
    script: options.hang ? [{ match: { endpoint: 'chat' }, times: 1, fault: 'hang' }] : [],
  });
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify(testScenario({ rounds: 3, yCount: 2 })));
  const out = path.join(dir, 'runs');
  const started = startAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
  // The run has started its first step once its first model call reached the server (the models
  // are loaded before it, after run-start is in the log).
  await waitForEvents(out, 1);
  while (!server.requests.some((request) => request.path === '/api/chat')) await sleep(10);
  await sleep(300);
  return { ...started, out };
}

describe('Ctrl-C during a run', () => {
  it('takes two SIGINTs 50 ms apart as one keypress: the step in flight completes', async () => {
    const { child, result, out } = await startSlowRun();
    child.kill('SIGINT');
    await sleep(50);
    child.kill('SIGINT');
    const stopped = await result;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).not.toMatch(/aborting/);
    const events = readEvents(onlyRunDir(out));
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'stopped' });
    expect(events.at(-2)?.type).toBe('turn-end');
    expect(events.at(-2)).not.toMatchObject({ degraded: true });
  }, 900_000);

  it('aborts the step in flight on a second SIGINT 2 s after the first', async () => {
    const { child, result, out } = await startSlowRun({ hang: true });
    child.kill('SIGINT');
    await sleep(2000);
    child.kill('SIGINT');
    const stopped = await result;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/SIGINT again: aborting the step in flight/);
    const events = readEvents(onlyRunDir(out));
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'stopped' });
    expect(events.map((event) => event.type)).not.toContain('turn-end');
  }, 900_000);
});

describe('Ctrl-C during a batch', () => {
  it('says that running the same command again resumes the batch', async () => {
    // Round 3's judges answer a minute late, so the debate is still going when Ctrl-C comes unless
    // that is a minute late (the stop waits for the steps in flight, so they must end by themselves).
    const server = await mock({
      speed: 0.25,
      script: [answerLate({ text: '## Your task: evaluate round 3\n' })],
    });
    const dir = tempDir();
    const file = path.join(dir, 'scenario.yaml');
    writeFileSync(file, stringify(testScenario({ rounds: 3, yCount: 2 })));
    const out = path.join(dir, 'runs');
    const { child, result } = startAgora(['batch', file, '--host', server.url, '--out', out]);
    await waitForEvents(out, 1);
    child.kill('SIGINT');
    const stopped = await result;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/SIGINT: stopping after the steps in flight/);
    expect(stopped.stderr).toMatch(/: 1 debate, 2 at a time, at most 1 model call at once per host/);
    expect(stopped.stdout).toMatch(/1 stopped\..*\nRun the same command again to resume the batch\.\n$/);
  }, 900_000);
});
