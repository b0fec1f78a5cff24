import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/core/events.js';
import { lateRoundTokenLimit } from '../../src/formats/knockout/round-calls.js';
import { foldKnockout, type KnockoutState } from '../../src/formats/knockout/state.js';
import { logOf, scenarioOf, turn } from '../helpers/run-events.js';

const NORMAL = 1024;

/** The state after Xavier's round-1 statement: 200 tokens in `realMs`, of which `loadMs` loading llama3. */
async function afterFirstStatement(realMs: number, loadMs?: number): Promise<KnockoutState> {
  const scenario = await scenarioOf('knockout', { round_time_limit: { seconds: 10, mode: 'keep' } });
  const first = {
    ...turn(1, 'Xavier', 'X', 'Car-free centres are cleaner and safer.'),
    outputTokens: 200,
    realMs,
    ...(loadMs === undefined ? {} : { loadMs }),
  };
  return logOf(scenario, [first as never]).reduce<KnockoutState | undefined>(
    (state, event: RunEvent) => foldKnockout(state, event),
    undefined,
  ) as KnockoutState;
}

describe('a kept round time limit in round 1', () => {
  it("holds round 1's second statement, at the rate of the statement heard so far", async () => {
    // 200 tokens in 9 s of a 10 s round: about 1 s left, at 0.022 tokens a ms.
    const state = await afterFirstStatement(9000);
    const cap = lateRoundTokenLimit(state, 1, 'mistral', NORMAL);
    expect(cap).toBeLessThan(NORMAL);
    expect(cap).toBe(200);
  });

  it('leaves a model load out of the rate and of the round clock', async () => {
    // The same 9 s, 8 of them loading llama3: written in 1 s, and the round has used none of its
    // time. The next statement is on llama3 too (both sides on one model), which has its own rate.
    const state = await afterFirstStatement(9000, 8000);
    expect(lateRoundTokenLimit(state, 1, 'llama3', NORMAL)).toBe(NORMAL);
    // Without the load, the same model's rate and the clock give it far less.
    expect(lateRoundTokenLimit(await afterFirstStatement(9000), 1, 'llama3', NORMAL)).toBe(200);
  });
});
