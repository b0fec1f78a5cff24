/**
 * A council's state after some rounds, folded from the events a run would log: every debating
 * role answered each round with the result `resultOf` gives it.
 */
import path from 'node:path';
import { stringify } from 'yaml';
import { parseScenario } from '../../src/config/load-scenario.js';
import type { CouncilScenario } from '../../src/config/scenario.js';
import type { RunEvent } from '../../src/core/events.js';
import { DEBATING_ROLES } from '../../src/formats/council/council-prompts.js';
import { foldSequence, type SequenceState } from '../../src/formats/shared/sequence-state.js';
import { tempDir } from './cli.js';
import { SMALL_SCENARIOS } from './format-scenarios.js';

export async function councilAfterRounds(options: {
  rounds: number;
  /** Fields over the small council scenario's. */
  scenario?: Record<string, unknown>;
  resultOf: (round: number, role: string) => Record<string, unknown>;
}): Promise<SequenceState<CouncilScenario>> {
  const data = { ...SMALL_SCENARIOS.council?.({}), ...options.scenario };
  const scenario = (await parseScenario(stringify(data), path.join(tempDir(), 's.yaml'))) as CouncilScenario;
  let seq = 1;
  const at = '2026-01-01T00:00:00.000Z';
  let state = foldSequence<CouncilScenario>(undefined, {
    type: 'run-start',
    runId: 'r',
    format: 'council',
    scenario,
    engineVersion: 'test',
    seq,
    at,
  });
  for (let round = 1; round <= options.rounds; round += 1) {
    for (const role of DEBATING_ROLES) {
      seq += 1;
      const event = {
        type: 'assessment',
        phase: `round-${round}`,
        round,
        judge: role,
        model: 'llama3',
        result: options.resultOf(round, role),
        abstained: false,
        promptTokens: 100,
        promptChars: 400,
        outputTokens: 100,
        realMs: 1,
        attempts: 1,
        seq,
        at,
      } as unknown as RunEvent;
      state = foldSequence(state, event);
    }
  }
  return state;
}
