/**
 * Which seats of a debate are a person's: `--human SEAT` on the command line, `human: true` on an
 * agent in the scenario. The scenario a run starts with records it, so a resumed run seats the
 * person again without being told.
 */
import { UsageError } from '../core/errors.js';
import type { Scenario } from './scenario.js';

/** The names of the agents a person speaks for. */
export function personSeats(scenario: Scenario): string[] {
  if (scenario.format !== 'knockout') return [];
  return scenario.agents.filter((agent) => agent.human === true).map((agent) => agent.name);
}

/**
 * The scenario with `seat` taken by a person. In a knockout the seat is `x` (Position X's agent) or
 * a Position Y agent's name. Only the seat's statements are the person's: a Position Y agent who is
 * not debating judges with its model, as before. The other formats' seats are all models' so far.
 */
export function seatPerson(scenario: Scenario, seat: string): Scenario {
  const wanted = seat.trim().toLowerCase();
  if (scenario.format !== 'knockout') {
    throw new UsageError(
      `--human ${seat}: a person can take a seat of a knockout debate (--human x, or a Position Y agent's name); the ${scenario.format} format's seats are all models' so far`,
    );
  }
  const chosen = scenario.agents.find(
    (agent) => (wanted === 'x' && agent.position === 'X') || agent.name.toLowerCase() === wanted,
  );
  if (!chosen) {
    const names = scenario.agents.filter((agent) => agent.position === 'Y').map((agent) => agent.name);
    throw new UsageError(
      `--human ${seat}: a knockout's seats are x (Position X) and the Position Y agents ${names.join(', ')}; got "${seat}"`,
    );
  }
  return {
    ...scenario,
    agents: scenario.agents.map((agent) => (agent === chosen ? { ...agent, human: true } : agent)),
  };
}
