/**
 * Which seats of a debate are a person's: `--human SEAT` on the command line, `human: true` on a
 * debater in the scenario. The scenario a run starts with records it, so a resumed run seats the
 * person again without being told. A person can take a debater's seat in a knockout, a duel or a
 * formal debate; a judge's seat is always a model's.
 */
import { UsageError } from '../core/errors.js';
import { formalSides } from './formal-sides.js';
import type { DuelScenario, FormalScenario, KnockoutScenario, Scenario } from './scenario.js';
import { settleSeed, withSeed } from './scenario-overrides.js';

/** The names of the debaters a person speaks for. */
export function personSeats(scenario: Scenario): string[] {
  switch (scenario.format) {
    case 'knockout':
      return scenario.agents.filter((agent) => agent.human === true).map((agent) => agent.name);
    case 'duel':
      return [scenario.debaters.a, scenario.debaters.b]
        .filter((debater) => debater.human === true)
        .map((debater) => debater.name);
    case 'formal':
      return (scenario.debaters ?? [])
        .filter((debater) => debater.human === true)
        .map((debater) => debater.name);
    default:
      return [];
  }
}

/**
 * The scenario with `seat` taken by a person: in a knockout `x` (Position X's agent) or a Position
 * Y agent's name; in a duel `a`, `b` or a debater's name; in a formal debate `affirmative`,
 * `negative` or a debater's name. Only the seat's statements are the person's: a knockout's
 * Position Y agent who is not debating judges with its model, as before.
 */
export function seatPerson(scenario: Scenario, seat: string): Scenario {
  const wanted = seat.trim().toLowerCase();
  switch (scenario.format) {
    case 'knockout':
      return seatInKnockout(scenario, seat, wanted);
    case 'duel':
      return seatInDuel(scenario, seat, wanted);
    case 'formal':
      return seatInFormal(scenario, seat, wanted);
    default:
      throw new UsageError(
        `--human ${seat}: a person can take a debater's seat in a knockout, a duel or a formal debate; the ${scenario.format} format's seats are all models' so far`,
      );
  }
}

function seatInKnockout(scenario: KnockoutScenario, seat: string, wanted: string): Scenario {
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

function seatInDuel(scenario: DuelScenario, seat: string, wanted: string): Scenario {
  const { a, b } = scenario.debaters;
  const seats = `a (Debater A, ${a.name}) and b (Debater B, ${b.name})`;
  const side =
    wanted === 'a' || a.name.toLowerCase() === wanted
      ? 'a'
      : wanted === 'b' || b.name.toLowerCase() === wanted
        ? 'b'
        : undefined;
  if (side === undefined) {
    if (wanted === 'judge' || scenario.judge.name.toLowerCase() === wanted) {
      throw new UsageError(
        `--human ${seat}: the judge's seat is always a model's; a person can take a duel's ${seats}`,
      );
    }
    throw new UsageError(`--human ${seat}: a duel's seats are ${seats}; got "${seat}"`);
  }
  return {
    ...scenario,
    debaters: { ...scenario.debaters, [side]: { ...scenario.debaters[side], human: true } },
  };
}

function seatInFormal(given: FormalScenario, seat: string, wanted: string): Scenario {
  if (!given.debaters) {
    throw new UsageError(
      `--human ${seat}: this formal debate picks its two debaters from the server when it starts, so it has no seats to take yet; name the two debaters in the scenario (debaters:, with a name and a model each), or give their models with --models a=MODEL,b=MODEL`,
    );
  }
  // Sides are drawn by seed: a seed drawn per run is drawn now, so the side named is the side taken.
  const scenario = given.randomSeed ? (withSeed(given, settleSeed(given).seed) as FormalScenario) : given;
  const sides = formalSides(scenario);
  const seats = `affirmative (${sides.affirmative.name}) and negative (${sides.negative.name})`;
  const chosen =
    wanted === 'affirmative' || wanted === 'negative'
      ? sides[wanted]
      : scenario.debaters?.find((debater) => debater.name.toLowerCase() === wanted);
  if (!chosen) {
    if (
      wanted === 'judge' ||
      wanted === 'moderator' ||
      wanted === scenario.verdict.judge_model?.toLowerCase()
    ) {
      throw new UsageError(
        `--human ${seat}: the judge's and the moderator's seats are always a model's; a person can take a formal debate's ${seats}`,
      );
    }
    throw new UsageError(`--human ${seat}: a formal debate's seats are ${seats}; got "${seat}"`);
  }
  return {
    ...scenario,
    debaters: scenario.debaters?.map((debater) =>
      debater === chosen ? { ...debater, human: true } : debater,
    ),
  };
}
