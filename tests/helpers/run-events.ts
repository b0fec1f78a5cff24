/**
 * Run logs written out event by event, for tests of what is read from a log (the argument map, the
 * arena's sides and verdicts): a scenario as the loader gives it, then the events a test names.
 */
import path from 'node:path';
import { stringify } from 'yaml';
import { parseScenario } from '../../src/config/load-scenario.js';
import type { Scenario } from '../../src/config/scenario.js';
import type { ExtractedClaim, RunEvent, RunEventBody } from '../../src/core/events.js';
import { projectRoot } from './cli.js';
import { SMALL_SCENARIOS } from './format-scenarios.js';

export async function scenarioOf(format: string, extra: Record<string, unknown> = {}): Promise<Scenario> {
  const make = SMALL_SCENARIOS[format];
  if (!make) throw new Error(`no small scenario for ${format}`);
  return parseScenario(stringify(make(extra)), path.join(projectRoot, 'scenarios', 'test.yaml'));
}

/** Numbers the events from 0 and stamps them a second apart. */
export function logOf(scenario: Scenario, bodies: RunEventBody[]): RunEvent[] {
  const all: RunEventBody[] = [
    { type: 'run-start', runId: 'test-run', format: scenario.format, scenario, engineVersion: 'test' },
    ...bodies,
  ];
  return all.map((body, seq) => ({
    ...body,
    seq,
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
  }));
}

const usage = { promptTokens: 10, promptChars: 40, outputTokens: 20, realMs: 5 };

export function turn(
  round: number,
  agent: string,
  position: 'X' | 'Y',
  text: string,
  model = 'llama3',
): RunEventBody {
  return {
    type: 'turn-end',
    round,
    agent,
    position,
    model,
    text,
    simulatedSeconds: 5,
    truncated: false,
    ...usage,
  };
}

export function claims(
  round: number,
  agent: string,
  position: 'X' | 'Y',
  list: Array<Partial<ExtractedClaim> & { claim: string }>,
): RunEventBody {
  return {
    type: 'claims',
    round,
    agent,
    position,
    source: 'model',
    model: 'llama3',
    attempts: 1,
    claims: list.map((item) => ({ kind: 'new', answers: null, evidence: '', ...item })),
    ...usage,
  };
}

export function statement(
  round: number,
  phase: string,
  speaker: string,
  side: string,
  text: string,
  model = 'llama3',
): RunEventBody {
  return {
    type: 'statement',
    phase,
    round,
    speaker,
    side,
    model,
    text,
    attempts: 1,
    truncated: false,
    ...usage,
  };
}

export function vote(
  round: number,
  judge: string,
  model: string,
  keep: boolean,
  score = keep ? 4 : 2,
): RunEventBody {
  return {
    type: 'vote-cast',
    round,
    judge,
    model,
    abstained: false,
    attempts: 1,
    evaluation: {
      round_number: round,
      position_y_performance: { argument_strength: score },
      total_score: score,
      comments: '',
      continue_vote: keep,
    },
    ...usage,
  };
}

export function assessment(
  phase: 'verdict' | 'judgement',
  round: number,
  model: string,
  result: Record<string, unknown>,
): RunEventBody {
  return {
    type: 'assessment',
    phase,
    round,
    judge: 'Judge',
    model,
    result,
    abstained: false,
    attempts: 1,
    ...usage,
  };
}

export function runEnd(status: 'completed' | 'degraded' | 'stopped' = 'completed'): RunEventBody {
  return { type: 'run-end', status, stopReason: 'finished' };
}
