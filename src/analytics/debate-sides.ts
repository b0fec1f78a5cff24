/**
 * A debate's two sides as a person judges them, read from its log: who spoke for each side on which
 * model, and each judge's verdict on the whole debate, in the same terms (a side's key, or a tie).
 *
 * A judge's verdict on the debate: the formal verdict's winner; in a duel, the side the judge found
 * stronger in more rounds; in a knockout, where judges vote on each round whether Position Y's
 * debater keeps the floor, Position X when more of the judge's votes went against Y ("rotate")
 * than for it, Position Y when fewer. Equal counts are a tie.
 */
import type { Scenario } from '../config/scenario.js';
import type { RunEvent } from '../core/events.js';
import { formalSides } from '../formats/formal/formal-plan.js';
import { mapSides } from './argument-claims.js';

export const TIE = 'tie';

export interface Speaker {
  name: string;
  /** The model the scenario gave it (not a fallback that spoke for it once). */
  model: string;
}

export interface DebateSide {
  key: string;
  label: string;
  speakers: Speaker[];
}

export interface JudgeVerdict {
  judge: string;
  model: string;
  /** A side's key, or `tie`. */
  verdict: string;
}

function scenarioOf(events: readonly RunEvent[]): Scenario | null {
  const start = events[0];
  return start?.type === 'run-start' ? start.scenario : null;
}

/** Who the scenario names, with their models, by name. */
export function speakerModels(scenario: Scenario): Map<string, string> {
  switch (scenario.format) {
    case 'knockout':
      return new Map(scenario.agents.map((agent) => [agent.name, agent.model]));
    case 'formal':
      return new Map((scenario.debaters ?? []).map((debater) => [debater.name, debater.model]));
    case 'duel':
      return new Map([
        [scenario.debaters.a.name, scenario.debaters.a.model],
        [scenario.debaters.b.name, scenario.debaters.b.model],
      ]);
    default:
      return new Map();
  }
}

/** The two sides with the debaters who spoke for them; null for a format without two sides. */
export function debateSides(events: readonly RunEvent[]): DebateSide[] | null {
  const scenario = scenarioOf(events);
  const sides = scenario ? mapSides(scenario) : null;
  if (!scenario || !sides) return null;
  const models = speakerModels(scenario);
  const spoke = new Map<string, Set<string>>(sides.map((side) => [side.key, new Set<string>()]));
  for (const event of events) {
    if (event.type === 'turn-end') spoke.get(event.position)?.add(event.agent);
    if (event.type === 'statement' && event.phase !== 'preparation')
      spoke.get(event.side)?.add(event.speaker);
  }
  // Before anyone spoke, the scenario says who will.
  if (scenario.format === 'formal' && (scenario.debaters?.length ?? 0) === 2) {
    const drawn = formalSides(scenario);
    spoke.get('affirmative')?.add(drawn.affirmative.name);
    spoke.get('negative')?.add(drawn.negative.name);
  }
  if (scenario.format === 'duel') {
    spoke.get('a')?.add(scenario.debaters.a.name);
    spoke.get('b')?.add(scenario.debaters.b.name);
  }
  if (scenario.format === 'knockout') {
    for (const agent of scenario.agents) if (agent.position === 'X') spoke.get('X')?.add(agent.name);
  }
  return sides.map((side) => ({
    ...side,
    speakers: [...(spoke.get(side.key) ?? [])].map((name) => ({ name, model: models.get(name) ?? '' })),
  }));
}

/** Each judge's verdict on the whole debate, in side keys; judges that gave none are left out. */
export function judgeVerdicts(events: readonly RunEvent[]): JudgeVerdict[] {
  const format = scenarioOf(events)?.format;
  if (format === 'formal') {
    return events.flatMap((event) =>
      event.type === 'assessment' &&
      event.phase === 'verdict' &&
      event.result &&
      typeof event.result.winner === 'string'
        ? [{ judge: event.judge, model: event.model, verdict: event.result.winner }]
        : [],
    );
  }
  // Per judge: the picks for each side over the rounds it judged.
  const tallies = new Map<string, { model: string; first: number; second: number }>();
  const count = (judge: string, model: string, pick: 'first' | 'second' | null) => {
    const tally = tallies.get(judge) ?? { model, first: 0, second: 0 };
    if (pick) tally[pick] += 1;
    tallies.set(judge, tally);
  };
  for (const event of events) {
    if (format === 'knockout' && event.type === 'vote-cast' && event.evaluation) {
      count(event.judge, event.model, event.evaluation.continue_vote ? 'second' : 'first');
    }
    if (format === 'duel' && event.type === 'assessment' && event.phase === 'judgement' && event.result) {
      const stronger = event.result.stronger;
      count(event.judge, event.model, stronger === 'a' ? 'first' : stronger === 'b' ? 'second' : null);
    }
  }
  const [first, second] = format === 'knockout' ? ['X', 'Y'] : ['a', 'b'];
  return [...tallies].map(([judge, tally]) => ({
    judge,
    model: tally.model,
    verdict:
      tally.first > tally.second ? (first as string) : tally.second > tally.first ? (second as string) : TIE,
  }));
}
