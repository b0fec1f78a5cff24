import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario, parseScenario } from '../../src/config/load-scenario.js';
import { ConfigError } from '../../src/core/errors.js';
import { projectRoot } from '../helpers/cli.js';

describe('loadScenario', () => {
  it('fills the SRS defaults for everything a scenario leaves out', async () => {
    const scenario = await parseScenario(
      [
        'topic: Should abortion be legal?',
        'positions: { x: Pro-Choice, y: Pro-Life }',
        'agents:',
        '  - { name: A, position: X, model: llama3, role: r }',
        '  - { name: B, position: Y, model: mistral, role: r }',
        '  - { name: C, position: Y, model: mistral, role: r }',
      ].join('\n'),
      path.join(projectRoot, 'virtual.yaml'),
    );
    if (scenario.format !== 'knockout') throw new Error('expected the knockout format by default');
    expect(scenario.debate).toEqual({ rounds: 6, starting_position: 'X' });
    expect(scenario.rotation).toEqual({ threshold: 2, limit: 3 });
    expect(scenario.timer).toEqual({ seconds_per_side: 300, tokens_per_second: 3.75 });
    expect(scenario.model_options).toEqual({ temperature: 0.7, max_tokens: 1024, context_window: 8192 });
    expect(
      Object.fromEntries(Object.entries(scenario.judging.criteria).map(([k, v]) => [k, v.weight])),
    ).toEqual({
      argument_strength: 0.4,
      relevance: 0.2,
      persuasiveness: 0.3,
      clarity: 0.1,
    });
    // Two Y agents leave one judge, so a threshold of 2 can never be met: that deserves a warning.
    expect(scenario.warnings.map((warning) => warning.path)).toContain('rotation.threshold');
  });

  it('reads context files relative to the scenario', async () => {
    const scenario = await loadScenario(path.join(projectRoot, 'scenarios', 'abortion.yaml'));
    if (scenario.format !== 'knockout') throw new Error('expected a knockout scenario');
    expect(scenario.contextFiles).toHaveLength(1);
    expect(scenario.contextFiles[0]?.content.length).toBeGreaterThan(500);
    expect(scenario.agents.filter((agent) => agent.position === 'Y')).toHaveLength(4);
    expect(scenario.warnings).toEqual([]);
  });

  it('throws a ConfigError carrying every issue with its position', async () => {
    const error = await parseScenario(
      'topic: ""\npositions: { x: a }\nagents: []\n',
      '/virtual/s.yaml',
    ).catch((e) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const issues = (error as ConfigError).issues;
    expect(issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['topic', 'positions.y', 'agents']),
    );
    expect(issues.find((issue) => issue.path === 'topic')).toMatchObject({ line: 1, column: 8 });
    expect((error as ConfigError).exitCode).toBe(3);
  });
});
