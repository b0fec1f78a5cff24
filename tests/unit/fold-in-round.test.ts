/**
 * A fold in the middle of a round (a call that does not fit after all) rewrites the summary's parts
 * into one when they would take too much of that call's room, as a fold between rounds does: a part
 * added instead would be as long as the rounds it folds when the summariser writes to its cap.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseScenario } from '../../src/config/load-scenario.js';
import type { RunEvent } from '../../src/core/events.js';
import { foldInRound } from '../../src/formats/knockout/fold-plan.js';
import { foldKnockout, type KnockoutState } from '../../src/formats/knockout/state.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { tempDir } from '../helpers/cli.js';
import { inProcessRun } from '../helpers/in-process-run.js';
import { testScenario } from '../helpers/scenario.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A knockout whose summariser always writes to its cap, in a window that needs folds. */
async function loggedRun(): Promise<RunEvent[]> {
  const long = 'The debate went back and forth on every point raised so far. '.repeat(120);
  const server = await startMockOllama({
    models: ['llama3', 'mistral'],
    script: [{ match: { text: '## Your task: the summary of' }, reply: long }],
  });
  servers.push(server);
  const base = testScenario({ rounds: 5, contextWindow: 2800, maxTokens: 160 });
  const data = { ...base, context: { ...(base.context as object), summary: 'model' } };
  const scenario = await parseScenario(stringify(data), path.join(tempDir(), 's.yaml'));
  return inProcessRun(scenario, new OllamaProvider({ host: server.url }));
}

describe('a fold in the middle of a round', () => {
  it('rewrites long parts into one instead of adding another', async () => {
    const events = await loggedRun();
    const firstPart = events.findIndex((event) => event.type === 'summary');
    expect(firstPart).toBeGreaterThan(0);
    // The state after the first round that ended once a part of the summary was written.
    const roundEnd = events.findIndex((event, index) => index > firstPart && event.type === 'round-end');
    expect(roundEnd).toBeGreaterThan(firstPart);
    const state = events
      .slice(0, roundEnd + 1)
      .reduce<KnockoutState | undefined>((folded, event) => foldKnockout(folded, event), undefined);
    if (state === undefined) throw new Error('no state');
    const finished = (events[roundEnd] as Extract<RunEvent, { type: 'round-end' }>).round;
    expect(state.summaries.length).toBeGreaterThan(0);
    expect(state.summaries.at(-1)?.throughRound).toBeLessThan(finished);
    // The next round's call that does not fit: a statement far longer than the ones before it.
    const call = {
      model: 'mistral',
      messages: [{ role: 'user' as const, content: 'A very long statement. '.repeat(400) }],
      tokenLimit: 160,
    };
    const plan = foldInRound(state, finished + 1, call, "Thomas Reyes's statement");
    expect(plan).toMatchObject({ kind: 'summarise', fromRound: 1, throughRound: finished });
  });
});
