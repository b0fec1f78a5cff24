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
import { readEventLog } from '../../src/store/event-log.js';
import { tempDir } from '../helpers/cli.js';
import { testScenario } from '../helpers/scenario.js';

let server: MockOllama;
beforeAll(async () => {
  server = await startMockOllama({ models: ['llama3', 'mistral'] });
});
afterAll(async () => {
  await server.close();
});

async function completedLog(data: Record<string, unknown>): Promise<RunEvent[]> {
  const scenario = await parseScenario(stringify(data), path.join(tempDir(), 's.yaml'));
  const format = formatNamed(scenario.format);
  if (!format) throw new Error('no format');
  const { runId, paths } = createRunDir(tempDir(), scenario);
  await driveDebate({
    format,
    paths,
    start: { runId, scenario },
    provider: new OllamaProvider({ host: server.url }),
    logger: pino({ enabled: false }),
  });
  return readEventLog(paths.events).events;
}

/** What event a planned step must produce first. */
function expectedType(step: { kind: string }): string {
  switch (step.kind) {
    case 'speak':
      return 'turn-end|statement';
    case 'judge':
      return 'vote-cast|assessment';
    case 'verdict':
    case 'synthesis':
      return 'assessment';
    case 'round':
      return 'assessment';
    case 'intake':
    case 'consensus':
    case 'budget':
    case 'packetize':
    case 'writeback':
      return 'artifact';
    case 'proposals':
    case 'critiques':
    case 'refinements':
    case 'design':
      return 'statement';
    case 'decide':
      return 'round-end';
    case 'summarise':
      return 'summary';
    case 'claims':
      return 'claims';
    case 'comment':
      return 'commentary';
    default:
      return 'run-end';
  }
}

describe.each([
  ['knockout', testScenario({ rounds: 4, contextWindow: 2800, maxTokens: 160 })],
  [
    'formal',
    {
      format: 'formal',
      topic: 'Cities should ban cars',
      debaters: [
        { name: 'A', model: 'llama3' },
        { name: 'B', model: 'mistral' },
      ],
      verdict: { enabled: true },
    },
  ],
  [
    'critique',
    {
      format: 'critique',
      topic: 'Design a cache',
      rounds: 2,
      // A threshold makes the judge synthesise after every round, so the log holds several syntheses.
      confidence_threshold: 100,
      agents: [
        { name: 'A', role: 'architect', model: 'llama3' },
        { name: 'P', role: 'performance', model: 'mistral' },
      ],
      judge: { model: 'llama3' },
    },
  ],
  ['council', { format: 'council', topic: 'Move billing to PostgreSQL?', constraints: ['little downtime'] }],
  [
    'duel',
    {
      format: 'duel',
      topic: 'Tea beats coffee',
      max_rounds: 3,
      debaters: { a: { model: 'llama3' }, b: { model: 'mistral' } },
      judge: { model: 'llama3' },
      stop: { judge_early_stop: false },
    },
  ],
])('replaying a %s log', (name, data) => {
  it('plans, at every point of the log and after a resume there, the step that came next', async () => {
    const events = await completedLog(data as Record<string, unknown>);
    const format = formatNamed(name);
    if (!format) throw new Error('no format');
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    // The knockout log is long enough, for its small window, to include running summaries.
    if (name === 'knockout') expect(events.some((event) => event.type === 'summary')).toBe(true);
    let checked = 0;
    for (let cut = 1; cut < events.length; cut += 1) {
      const prefix = events.slice(0, cut);
      const next = events[cut] as RunEvent;
      const previous = events[cut - 1] as RunEvent;
      // Concurrent judges: a cut between two votes of one step is planned as that same step.
      const state = prefix.reduce<unknown>((folded, event) => format.fold(folded, event), undefined);
      const step = format.next(state);
      expect(expectedType(step).split('|')).toContain(next.type);
      if (step.kind === 'speak' && 'agent' in step)
        expect(step.agent).toBe((next as { agent: string }).agent);
      const resume = { type: 'run-resume', engineVersion: 'test', seq: cut, at: previous.at } as RunEvent;
      const resumed = format.next(format.fold(state, resume));
      expect(JSON.stringify(resumed)).toBe(JSON.stringify(step));
      checked += 1;
    }
    expect(checked).toBe(events.length - 1);
  });
});
