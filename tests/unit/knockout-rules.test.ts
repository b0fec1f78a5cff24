/** The knockout's rules name the criteria the scenario judges by, not a fixed list. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseScenario } from '../../src/config/load-scenario.js';
import type { KnockoutScenario } from '../../src/config/scenario.js';
import { knockoutSystemPrompt } from '../../src/formats/knockout/knockout-prompts.js';
import { tempDir } from '../helpers/cli.js';
import { testScenario } from '../helpers/scenario.js';

async function withCriteria(criteria?: Record<string, unknown>): Promise<KnockoutScenario> {
  const extra = criteria ? { judging: { criteria } } : {};
  return (await parseScenario(
    stringify(testScenario({ rounds: 2, extra })),
    path.join(tempDir(), 'knockout.yaml'),
  )) as KnockoutScenario;
}

describe("the knockout's rules", () => {
  it('name the default criteria in words', async () => {
    expect(knockoutSystemPrompt(await withCriteria())).toContain(
      'judge the debating Position Y agent on argument strength, relevance, persuasiveness and clarity, and vote',
    );
  });

  it("name a scenario's own criteria", async () => {
    const rules = knockoutSystemPrompt(
      await withCriteria({
        use_of_evidence: { weight: 0.7, description: 'Sources named and used.' },
        civility: { weight: 0.3, description: 'Answers the opponent, not the person.' },
      }),
    );
    expect(rules).toContain('judge the debating Position Y agent on use of evidence and civility, and vote');
    expect(rules).not.toContain('persuasiveness');
  });

  it("give every criterion's weight, description and scoring guide, for the debaters and the judges alike", async () => {
    const rules = knockoutSystemPrompt(
      await withCriteria({
        use_of_evidence: {
          weight: 0.7,
          description: 'Sources named and used.',
          scoring_guide: { '1': 'No sources', '5': 'Every claim sourced' },
        },
        civility: { weight: 0.3, description: 'Answers the opponent, not the person.' },
      }),
    );
    const criteria = rules.split('## How the debating Position Y agent is judged\n')[1]?.split('\n## ')[0];
    expect(criteria).toContain(
      '- use_of_evidence (weight 0.7): Sources named and used. [1 = No sources; 5 = Every claim sourced]',
    );
    expect(criteria).toContain('- civility (weight 0.3): Answers the opponent, not the person.');
  });
});
