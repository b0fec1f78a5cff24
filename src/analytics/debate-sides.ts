/**
 * A debate's two sides as a person judges them, read from its log: who spoke for each side on which
 * model, and each judge's verdict on the whole debate, in the same terms (a side's key, or a tie).
 *
 * A judge's verdict on the debate: the formal verdict's winner; in a duel, the side the judge found
 * stronger in more rounds; in a knockout, where judges vote on each round whether Position Y's
 * debater keeps the floor, Position X when more of the judge's votes went against Y ("rotate")
 * than for it, Position Y when fewer. Equal counts are a tie. A judge who debated in the debate
 * gives none.
 *
 * Per judge model, one verdict per debate (`modelVerdicts`): the verdict most of that model's judges
 * in it gave, a tie when two lead equally. And every format's verdicts on one scale (`onScale`):
 * the first side, the second side, or a tie, so that X/Y, affirmative/negative and a/b pool.
 */

import { formalSides } from '../config/formal-sides.js';
import type { Scenario } from '../config/scenario.js';
import type { RunEvent } from '../core/events.js';
import { seatModel } from '../core/person-seat.js';
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

/** Who the scenario names, with their models (`person` for a person's seat), by name. */
export function speakerModels(scenario: Scenario): Map<string, string> {
  switch (scenario.format) {
    case 'knockout':
      return new Map(scenario.agents.map((agent) => [agent.name, seatModel(agent)]));
    case 'formal':
      return new Map((scenario.debaters ?? []).map((debater) => [debater.name, seatModel(debater)]));
    case 'duel':
      return new Map([
        [scenario.debaters.a.name, seatModel(scenario.debaters.a)],
        [scenario.debaters.b.name, seatModel(scenario.debaters.b)],
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

/**
 * Each judge's verdict on the whole debate, in side keys. Judges that gave none are left out, and so
 * are judges who debated in it themselves (a knockout's Position Y agent that judged other rounds):
 * their verdict would be on their own side.
 */
export function judgeVerdicts(events: readonly RunEvent[]): JudgeVerdict[] {
  const debaters = new Set((debateSides(events) ?? []).flatMap((side) => side.speakers.map((s) => s.name)));
  return everyJudgeVerdict(events).filter((verdict) => !debaters.has(verdict.judge));
}

function everyJudgeVerdict(events: readonly RunEvent[]): JudgeVerdict[] {
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

/** One judge model's verdict on one debate, from its judges in it. */
export interface ModelVerdict {
  model: string;
  /** A side's key, or `tie`. */
  verdict: string;
  /** How many of the model's judges gave a verdict on the debate. */
  judges: number;
}

/** The answer most of the given ones are; a tie when two lead equally; null for none. */
export function majority(answers: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const answer of answers) counts.set(answer, (counts.get(answer) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const [top, next] = ranked;
  if (!top) return null;
  return next && next[1] === top[1] ? TIE : top[0];
}

/** Per judge model, its one verdict on the debate: the majority of its judges' verdicts. */
export function modelVerdicts(verdicts: readonly JudgeVerdict[]): ModelVerdict[] {
  const byModel = new Map<string, string[]>();
  for (const verdict of verdicts)
    byModel.set(verdict.model, [...(byModel.get(verdict.model) ?? []), verdict.verdict]);
  return [...byModel].map(([model, answers]) => ({
    model,
    verdict: majority(answers) ?? TIE,
    judges: answers.length,
  }));
}

/** The one scale every format's verdicts are pooled on. */
export type ScaleAnswer = 'first side' | 'second side' | 'tie';

/** A side's key (or a tie) on the common scale: the first side (X, affirmative, a), the second, or a tie. */
export function onScale(sides: readonly DebateSide[], key: string): ScaleAnswer {
  if (key === sides[0]?.key) return 'first side';
  if (key === sides[1]?.key) return 'second side';
  return 'tie';
}
