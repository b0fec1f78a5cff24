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
 * The scenario with `seat` taken by a person. In a knockout the seat is `x` (or Position X's
 * agent's name); a Position Y agent also judges the other Y debaters, which a person's seat does
 * not do, so Y seats are refused, as are the other formats' seats for now.
 */
export function seatPerson(scenario: Scenario, seat: string): Scenario {
  const wanted = seat.trim().toLowerCase();
  if (scenario.format !== 'knockout') {
    throw new UsageError(
      `--human ${seat}: a person can take Position X of a knockout debate (--human x); the ${scenario.format} format's seats are all models' so far`,
    );
  }
  const x = scenario.agents.find((agent) => agent.position === 'X');
  if (!x) throw new UsageError(`--human ${seat}: the scenario has no Position X agent`);
  if (wanted !== 'x' && wanted !== x.name.toLowerCase()) {
    const y = scenario.agents.find((agent) => agent.position === 'Y' && agent.name.toLowerCase() === wanted);
    throw new UsageError(
      y
        ? `--human ${seat}: ${y.name} is a Position Y agent, who also judges the other Y debaters; a person can take Position X (--human x)`
        : `--human ${seat}: a knockout's person seat is x (Position X, ${x.name}); got "${seat}"`,
    );
  }
  return {
    ...scenario,
    agents: scenario.agents.map((agent) => (agent === x ? { ...agent, human: true } : agent)),
  };
}
