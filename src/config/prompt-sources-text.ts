/**
 * Where each system prompt of a run came from (seed 002: built-in, a file by its absolute path, or
 * written inline in the scenario), for `--verbose`. Only a critique's agents and judge have prompts
 * of their own to choose; other formats say nothing.
 */
import { promptSourceText } from './role-prompts.js';
import type { Scenario } from './scenario.js';

export function promptSourcesText(scenario: Scenario): string {
  if (scenario.format !== 'critique') return '';
  const lines = scenario.agents.map(
    (agent) => `  ${agent.name} (${agent.role}): ${promptSourceText(agent.prompt_source)}`,
  );
  lines.push(`  ${scenario.judge.name} (judge): ${promptSourceText(scenario.judge.prompt_source)}`);
  return `System prompts:\n${lines.join('\n')}\n`;
}
