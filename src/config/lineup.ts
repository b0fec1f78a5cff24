/**
 * A model line-up (`--models x=llama3,y=mistral`, the form's models field, a batch's line-ups):
 * which model speaks for which side or role of a scenario.
 */

import { UsageError } from '../core/errors.js';
import type { Scenario } from './scenario.js';

export type Lineup = Record<string, string>;

/** `x=llama3,y=mistral` → { x: 'llama3', y: 'mistral' }. */
export function parseLineup(text: string): Lineup {
  const lineup: Lineup = {};
  for (const part of text.split(',')) {
    const [key, model] = part.split('=').map((piece) => piece.trim());
    if (!key || !model)
      throw new UsageError(`--models takes role=model pairs such as x=llama3,y=mistral; got "${text}"`);
    lineup[key] = model;
  }
  return lineup;
}

export const LINEUP_KEYS: Record<Scenario['format'], string[]> = {
  knockout: ['x', 'y', 'all'],
  duel: ['a', 'b', 'judge', 'all'],
  truth: ['a', 'b', 'judge', 'all'],
  formal: ['a', 'b', 'all'],
  // Roles name the agents' models: architect=llama3; judge= names the judge's.
  critique: ['judge', 'all'],
  council: ['proponent', 'critic', 'analyst', 'synthesizer', 'judge', 'all'],
};

/** The scenario with a model line-up applied: x/y for knockout, a/b/judge for duels, a/b for formal debaters. */
export function applyLineup(scenario: Scenario, lineup: Lineup | null): Scenario {
  if (!lineup) return scenario;
  const unknown = Object.keys(lineup).filter((key) => !LINEUP_KEYS[scenario.format].includes(key));
  if (unknown.length > 0) {
    throw new UsageError(
      `--models: "${unknown.join(', ')}" means nothing for a ${scenario.format} scenario; use ${LINEUP_KEYS[scenario.format].join(', ')}`,
    );
  }
  const pick = (key: string, current: string) => lineup[key] ?? lineup.all ?? current;
  switch (scenario.format) {
    case 'knockout':
      return {
        ...scenario,
        agents: scenario.agents.map((agent) => ({
          ...agent,
          model: pick(agent.position.toLowerCase(), agent.model),
        })),
      };
    case 'duel':
      return {
        ...scenario,
        debaters: {
          a: { ...scenario.debaters.a, model: pick('a', scenario.debaters.a.model) },
          b: { ...scenario.debaters.b, model: pick('b', scenario.debaters.b.model) },
        },
        judge: { ...scenario.judge, model: pick('judge', scenario.judge.model) },
      };
    case 'truth':
      return {
        ...scenario,
        debaters: {
          a: { ...scenario.debaters.a, model: pick('a', scenario.debaters.a.model) },
          b: { ...scenario.debaters.b, model: pick('b', scenario.debaters.b.model) },
        },
        judge: { ...scenario.judge, model: pick('judge', scenario.judge.model) },
      };
    case 'council': {
      const participants = Object.fromEntries(
        Object.entries(scenario.participants).map(([role, participant]) => [
          role,
          { ...participant, model: pick(role, participant.model) },
        ]),
      ) as typeof scenario.participants;
      return { ...scenario, participants };
    }
    case 'critique':
      return {
        ...scenario,
        agents: scenario.agents.map((agent) => ({ ...agent, model: pick(agent.role, agent.model) })),
        judge: { ...scenario.judge, model: pick('judge', scenario.judge.model) },
      };
    case 'formal': {
      const models = [
        pick('a', scenario.debaters?.[0]?.model ?? ''),
        pick('b', scenario.debaters?.[1]?.model ?? ''),
      ];
      if (models.some((model) => model === '')) return scenario;
      return {
        ...scenario,
        debaters: models.map((model, index) => ({
          name: scenario.debaters?.[index]?.name ?? model,
          model,
          fallback_models: scenario.debaters?.[index]?.fallback_models ?? [],
          ...(scenario.debaters?.[index]?.role ? { role: scenario.debaters[index]?.role } : {}),
        })),
      };
    }
  }
}

/** Whether a line-up names only this format's sides or roles (x/y for a knockout, a/b for a duel...). */
export function lineupFits(format: Scenario['format'], lineup: Lineup): boolean {
  return Object.keys(lineup).every((key) => LINEUP_KEYS[format].includes(key));
}

export const lineupText = (lineup: Lineup) =>
  Object.entries(lineup)
    .map(([key, model]) => `${key}=${model}`)
    .join(',');
