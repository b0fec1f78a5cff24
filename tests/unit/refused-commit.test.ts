/**
 * The runner's second store (the shared database's commit) refusing a step: the outcome says so,
 * even when the refused step is the one that ended the run, so no caller reports as finished a run
 * whose end the shared record does not hold.
 */
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseScenario } from '../../src/config/load-scenario.js';
import type { RunEvent } from '../../src/core/events.js';
import { formatNamed } from '../../src/formats/index.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import { createRunDir, driveDebate } from '../../src/manager/debate-manager.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { tempDir } from '../helpers/cli.js';

let server: MockOllama;
beforeAll(async () => {
  server = await startMockOllama({ models: ['llama3', 'mistral'] });
});
afterAll(async () => {
  await server.close();
});

const DUEL = {
  format: 'duel',
  topic: 'Tea beats coffee',
  max_rounds: 2,
  debaters: { a: { model: 'llama3' }, b: { model: 'mistral' } },
  judge: { model: 'llama3' },
  stop: { judge_early_stop: false },
};

/**
 * Drives a duel whose commit hook refuses the first batch of events `refuse` picks; `abortAfter`
 * aborts the run's signal once an event of that type is written (a lease lost mid-run).
 */
async function drive(refuse: (events: RunEvent[]) => boolean, abortAfter?: RunEvent['type']) {
  const abort = new AbortController();
  const scenario = await parseScenario(stringify(DUEL), path.join(tempDir(), 'duel.yaml'));
  const format = formatNamed(scenario.format);
  if (!format) throw new Error('no duel format');
  const { runId, paths } = createRunDir(tempDir(), scenario);
  const committed: RunEvent[] = [];
  const outcome = await driveDebate({
    format,
    paths,
    start: { runId, scenario },
    provider: new OllamaProvider({ host: server.url }),
    logger: pino({ enabled: false }),
    signal: abort.signal,
    onEvent: (event) => {
      if (event.type === abortAfter) abort.abort(new Error('the lease on the run was lost'));
    },
    commit: async (events) => {
      if (refuse(events)) throw new Error('the lease on the run was lost');
      committed.push(...events);
    },
  });
  return { outcome, committed };
}

describe('a refused commit', () => {
  it('of the step that ends the run: the outcome says the record did not take it, though the run ended here', async () => {
    const { outcome, committed } = await drive((events) => events.some((event) => event.type === 'run-end'));
    expect(outcome.transcript.status).toBe('completed');
    expect(outcome.commitRefused).toBe(true);
    expect((outcome.error as Error).message).toBe('the lease on the run was lost');
    expect(committed.some((event) => event.type === 'run-end')).toBe(false);
  });

  it('of the end written after a step the lost lease aborted: the outcome says the record did not take it', async () => {
    const { outcome, committed } = await drive(
      (events) => events.some((event) => event.type === 'run-end'),
      'statement',
    );
    // The run ended here (the step in flight was aborted), but not in the shared record: a worker
    // reports it lost, not stopped.
    expect(outcome.transcript.status).toBe('stopped');
    expect(outcome.commitRefused).toBe(true);
    expect(committed.some((event) => event.type === 'run-end')).toBe(false);
  });

  it('of a step in the middle: nothing after it is written, and the outcome says so', async () => {
    let batches = 0;
    const { outcome, committed } = await drive(() => {
      batches += 1;
      return batches === 3;
    });
    expect(outcome.commitRefused).toBe(true);
    expect(outcome.transcript.status).toBe('running');
    // Two batches went in; the third was refused and nothing was offered after it.
    expect(batches).toBe(3);
    expect(committed.map((event) => event.seq)).toEqual(committed.map((_, at) => at));
  });

  it('never: the outcome carries no refusal', async () => {
    const { outcome, committed } = await drive(() => false);
    expect(outcome.transcript.status).toBe('completed');
    expect(outcome.commitRefused).toBeUndefined();
    expect(outcome.error).toBeUndefined();
    expect(committed.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
  });
});
